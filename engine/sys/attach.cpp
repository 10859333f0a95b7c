#include "engine/sys/attach.h"

#include "engine/sys/bpf_link.h"
#include "engine/sys/features.h"
#include "engine/sys/perf.h"

namespace rawprobe::sys {

const char* attach_mode_name(AttachMode mode) { return mode == AttachMode::link ? "bpf_link" : "ioctl"; }

Result<PerfAttachment> attach_perf_event(Fd perf, int prog_fd, uint64_t cookie) {
  Fd link;
  AttachMode mode = AttachMode::ioctl;
  if (has(Feature::perf_link)) {
    Result<Fd> made = link_perf_event(prog_fd, perf.get(), cookie);
    if (!made) return made.error();
    link = std::move(*made);
    mode = AttachMode::link;
  } else {
    if (cookie != 0)
      return make_error("attach with a bpf cookie", "perf fd " + std::to_string(perf.get()),
                        "cookies need bpf_link for perf events (Linux 5.15)");
    if (Status st = perf_set_bpf(perf.get(), prog_fd); !st) return st.error();
  }
  if (Status st = perf_enable(perf.get()); !st) return st.error();
  return PerfAttachment(std::move(perf), std::move(link), mode);
}

}  // namespace rawprobe::sys
