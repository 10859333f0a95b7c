// perf_event_open and the PERF_EVENT_IOC_* ioctls. Every event is opened with
// PERF_FLAG_FD_CLOEXEC and `disabled` set: attach the program first, then enable
// (attach.h does both), so no hit is half-handled.
#pragma once
#include <cstdint>
#include <linux/perf_event.h>
#include <string>
#include <sys/types.h>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

// perf_event_open(2) on a caller-filled attr. attr.size is set here to the smallest published
// PERF_ATTR_SIZE_VER* that covers every non-zero field, so an older kernel is not handed a
// larger struct than it needs. `object` names the event in errors.
Result<Fd> perf_event_open(perf_event_attr& attr, pid_t pid, int cpu, int group_fd,
                           const std::string& object);

// The smallest PERF_ATTR_SIZE_VER* covering every non-zero byte of `attr`.
uint32_t perf_attr_size(const perf_event_attr& attr);

struct UprobeTarget {
  std::string path;             // binary or library, as the kernel resolves it
  uint64_t offset = 0;          // file offset of the instruction
  uint64_t ref_ctr_offset = 0;  // USDT semaphore file offset, 0 for none (needs 4.20)
  bool retprobe = false;
};
// A uprobe through the uprobe PMU (4.17). pid -1: every process (cpu must then be >= 0;
// a BPF program on a probe event runs on whichever CPU hits it).
Result<Fd> open_uprobe(const UprobeTarget& target, pid_t pid = -1, int cpu = 0);

struct KprobeTarget {
  std::string symbol;   // function name; empty to use `addr`
  uint64_t offset = 0;  // offset into the function
  uint64_t addr = 0;    // absolute kernel address when `symbol` is empty
  bool retprobe = false;
};
// A kprobe through the kprobe PMU (4.17).
Result<Fd> open_kprobe(const KprobeTarget& target, int cpu = 0);

// A tracepoint (PERF_TYPE_TRACEPOINT) by its tracefs id (tracefs.h: tracepoint_id), also the
// way to open a legacy uprobe_events/kprobe_events event.
Result<Fd> open_tracepoint(uint64_t id, pid_t pid, int cpu, const std::string& object);

Status perf_enable(int perf_fd);
Status perf_disable(int perf_fd);
// PERF_EVENT_IOC_SET_BPF: the pre-bpf_link way to attach (4.1+).
Status perf_set_bpf(int perf_fd, int prog_fd);

}  // namespace rawprobe::sys
