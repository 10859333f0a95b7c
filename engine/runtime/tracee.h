// The process a run is about: the -c command or the -p process.
//
// -c CMD: the child is forked at once (so its pid can filter uprobes and resolve libraries),
// but waits on a pipe before exec; release() lets it exec once every probe is attached, so
// no early call is missed. A second, close-on-exec pipe carries exec's errno back: EOF
// means the exec happened. The run ends when the child exits.
// run_to_exec() goes one step further for USDT semaphores written through /proc/PID/mem
// (kernels without ref_ctr_offset): the child execs under PTRACE_TRACEME and is stopped at
// each exec until `ready` holds (a wrapper such as a pyenv shim execs the real program
// later), then stays stopped there, its binary mapped but not one of its instructions run;
// release() detaches.
// -p PID: the process must exist; the run ends when it exits.
// Exit is seen through a pidfd (5.3) in the event loop; without one, exited() is polled.
#pragma once
#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::runtime {

// Splits -c's command into words at blanks; '...' and "..." group words, as a shell would
// for the plain cases (no variables, globs or escapes).
Result<std::vector<std::string>> split_command(const std::string& command);

class Tracee {
 public:
  static Result<Tracee> spawn(const std::string& command);
  static Result<Tracee> watch(pid_t pid);
  Tracee(Tracee&& other) noexcept;
  Tracee& operator=(Tracee&&) = delete;
  // A child never released exits without running the command; one still running gets
  // SIGTERM; a child is always reaped.
  ~Tracee();

  pid_t pid() const { return pid_; }
  // -c: the program the child execs (PATH searched); empty for -p.
  const std::string& executable() const { return executable_; }
  bool is_child() const { return child_; }
  // -c: lets the child exec and stops it at the first exec after which ready(pid) holds,
  // until release(). Error when exec failed, or the command exited first.
  Status run_to_exec(const std::function<bool(pid_t)>& ready);
  // -c: lets the child exec (or run on from the exec stop). Error when exec failed (the
  // command's errno).
  Status release();
  // Readable when the process has exited; -1 without pidfd support.
  int exit_fd() const { return pidfd_.get(); }
  // Non-blocking: has the process exited (and, for the child, been reaped)?
  bool exited();
  // The child's exit status as the shell reports it (128+signal), -1 when unknown.
  int exit_status() const { return status_; }

 private:
  Tracee() = default;
  Status let_exec(char how);
  pid_t pid_ = -1;
  std::string executable_;  // the -c command's program, as exec'd (for its errors)
  bool child_ = false;
  bool reaped_ = false;
  bool stopped_at_exec_ = false;  // ptrace-stopped after exec by run_to_exec()
  int status_ = -1;
  sys::Fd go_;         // write end: one byte releases the child (kExecStopped: traced exec)
  sys::Fd exec_err_;   // read end: errno of a failed exec, EOF on success
  sys::Fd pidfd_;
};

}  // namespace rawprobe::runtime
