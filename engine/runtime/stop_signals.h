// Ctrl-C (SIGINT), SIGTERM and SIGHUP end a run cleanly: END runs, the maps print, every
// attachment is released. SIGUSR1 prints every map and the run goes on, as in bpftrace. They
// are blocked and read from a signalfd, so the event loop sees them among its other fds and no
// handler runs at an arbitrary point.
//
// A shell starts a background job (`rawprobe ... &`) with SIGINT ignored, and an ignored
// signal is dropped even while blocked, so an inherited SIG_IGN is reset first. SIGPIPE is
// ignored, so a closed output pipe is a write error the run ends on, not a silent death that
// would leave tracefs events behind.
#pragma once
#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::runtime {

class StopSignals {
 public:
  static Result<StopSignals> install();
  StopSignals(StopSignals&&) = default;
  ~StopSignals();  // unblocks the signals again (tests install and drop them repeatedly)

  int fd() const { return fd_.get(); }
  // The signal that arrived (SIGINT, SIGUSR1, ...), or 0 when none is pending.
  int take();
  // Whether `signo` (from take) asks for the maps to be printed rather than the run to end.
  static bool is_print_request(int signo);

  // For a forked child before exec: default dispositions and an empty mask, so the
  // command gets signals as if started from the shell.
  static void reset_for_child();

 private:
  StopSignals() = default;
  sys::Fd fd_;
  bool blocked_ = false;
};

}  // namespace rawprobe::runtime
