// Attaching a loaded program to a perf event fd (uprobe/kprobe PMU event, tracepoint, legacy
// tracefs event), with DESIGN.md practice 6's ordered fallback:
//   link   BPF_LINK_CREATE(BPF_PERF_EVENT)      5.15+, carries a bpf cookie
//   ioctl  PERF_EVENT_IOC_SET_BPF               4.1+
// then PERF_EVENT_IOC_ENABLE. The handle owns the perf fd (and link), and closing it detaches.
#pragma once
#include <cstdint>
#include <optional>

#include "engine/base/result.h"
#include "engine/sys/fd.h"
#include "engine/sys/tracefs.h"

namespace rawprobe::sys {

enum class AttachMode { link, ioctl };
const char* attach_mode_name(AttachMode mode);

class PerfAttachment {
 public:
  AttachMode mode() const { return mode_; }
  int perf_fd() const { return perf_.get(); }
  int link_fd() const { return link_.get(); }
  // A tracefs event this attachment depends on; removed after the perf fd is closed (the
  // kernel refuses to remove an event that is still open: EBUSY).
  void keep_event(DynamicEvent event) { event_.emplace(std::move(event)); }

  PerfAttachment(PerfAttachment&&) = default;

 private:
  friend Result<PerfAttachment> attach_perf_event(Fd perf, int prog_fd, uint64_t cookie);
  PerfAttachment(Fd perf, Fd link, AttachMode mode)
      : perf_(std::move(perf)), link_(std::move(link)), mode_(mode) {}
  // Members die in reverse declaration order, which is the order the kernel needs: the link
  // (detach), then the perf fd, then the tracefs event (removable only once nothing has it
  // open). Move-assignment replaces them in declaration order, so it is not offered.
  std::optional<DynamicEvent> event_;
  Fd perf_;
  Fd link_;
  AttachMode mode_;
};

// Attaches `prog_fd` to the event `perf` (opened disabled, perf.h) and enables it. A non-zero
// cookie needs the link mode (bpf_get_attach_cookie(), 5.15).
Result<PerfAttachment> attach_perf_event(Fd perf, int prog_fd, uint64_t cookie = 0);

}  // namespace rawprobe::sys
