#include "engine/sys/perf.h"

#include <cerrno>
#include <cstring>

#include "engine/sys/call.h"
#include "engine/sys/decode_format.h"
#include "engine/sys/errors.h"
#include "engine/sys/pmu.h"

namespace rawprobe::sys {

namespace {

perf_event_attr zeroed_attr() {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  return attr;
}

// Probe and tracepoint events: count every hit, start disabled.
void probe_defaults(perf_event_attr& attr) {
  attr.sample_period = 1;
  attr.wakeup_events = 1;
  attr.disabled = 1;
}

Status ioctl_call(int fd, unsigned long request, unsigned long arg, const char* what) {
  IoctlCall call{fd, request, arg};
  Outcome out = invoke(call);
  if (!out.ok()) return call_error(what, call, out, "perf fd " + std::to_string(fd));
  return {};
}

// Sets the PMU's retprobe bit when a return probe is wanted.
Status set_retprobe(const Pmu& pmu, bool retprobe, perf_event_attr& attr, const std::string& object) {
  if (!retprobe) return {};
  if (!pmu.retprobe.present())
    return make_error("open " + pmu.name + " return probe", object,
                      "this kernel's " + pmu.name + " PMU has no format/retprobe");
  attr.config |= pmu.retprobe.place(1);
  return {};
}

std::string offset_text(uint64_t offset) { return decode_detail::hex_string(offset); }

}  // namespace

uint32_t perf_attr_size(const perf_event_attr& attr) {
  static constexpr uint32_t kSizes[] = {PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
                                        PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
                                        PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7};
  const auto* bytes = reinterpret_cast<const unsigned char*>(&attr);
  size_t used = sizeof attr;
  while (used > 0 && bytes[used - 1] == 0) --used;
  // `size` itself is non-zero only when set by the caller; it does not count as a field.
  for (uint32_t size : kSizes)
    if (used <= size) return size;
  return sizeof attr;
}

Result<Fd> perf_event_open(perf_event_attr& attr, pid_t pid, int cpu, int group_fd,
                           const std::string& object) {
  attr.size = 0;
  attr.size = perf_attr_size(attr);
  PerfOpenCall call{&attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC};
  Outcome out = invoke(call);
  if (!out.ok()) return call_error("open perf event", call, out, object);
  return Fd(static_cast<int>(out.ret));
}

Result<Fd> open_uprobe(const UprobeTarget& target, pid_t pid, int cpu) {
  std::string object = target.path + ":" + offset_text(target.offset);
  Result<Pmu> pmu = cached_pmu("uprobe");
  if (!pmu) return pmu.error();
  perf_event_attr attr = zeroed_attr();
  attr.type = pmu->type;
  probe_defaults(attr);
  if (Status st = set_retprobe(*pmu, target.retprobe, attr, object); !st) return st.error();
  if (target.ref_ctr_offset) {
    if (!pmu->ref_ctr_offset.present())
      return make_error("open uprobe with a USDT semaphore", object,
                        "ref_ctr_offset needs Linux 4.20; use the tracefs path or no semaphore");
    if (!pmu->ref_ctr_offset.fits(target.ref_ctr_offset))
      return make_error("open uprobe: semaphore offset " + offset_text(target.ref_ctr_offset) +
                            " does not fit the PMU's ref_ctr_offset bits",
                        object);
    attr.config |= pmu->ref_ctr_offset.place(target.ref_ctr_offset);
  }
  attr.config1 = reinterpret_cast<uintptr_t>(target.path.c_str());  // uprobe_path
  attr.config2 = target.offset;                                      // probe_offset
  return perf_event_open(attr, pid, cpu, -1, object);
}

Result<Fd> open_kprobe(const KprobeTarget& target, int cpu) {
  std::string object = target.symbol.empty() ? offset_text(target.addr)
                                             : target.symbol + "+" + offset_text(target.offset);
  Result<Pmu> pmu = cached_pmu("kprobe");
  if (!pmu) return pmu.error();
  perf_event_attr attr = zeroed_attr();
  attr.type = pmu->type;
  probe_defaults(attr);
  if (Status st = set_retprobe(*pmu, target.retprobe, attr, object); !st) return st.error();
  if (target.symbol.empty()) {
    attr.config2 = target.addr;  // kprobe_addr
  } else {
    attr.config1 = reinterpret_cast<uintptr_t>(target.symbol.c_str());  // kprobe_func
    attr.config2 = target.offset;                                        // probe_offset
  }
  return perf_event_open(attr, -1, cpu, -1, object);
}

Result<Fd> open_tracepoint(uint64_t id, pid_t pid, int cpu, const std::string& object) {
  perf_event_attr attr = zeroed_attr();
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.config = id;
  probe_defaults(attr);
  return perf_event_open(attr, pid, cpu, -1, object);
}

Status perf_enable(int perf_fd) { return ioctl_call(perf_fd, PERF_EVENT_IOC_ENABLE, 0, "enable perf event"); }
Status perf_disable(int perf_fd) { return ioctl_call(perf_fd, PERF_EVENT_IOC_DISABLE, 0, "disable perf event"); }
Status perf_set_bpf(int perf_fd, int prog_fd) {
  return ioctl_call(perf_fd, PERF_EVENT_IOC_SET_BPF, static_cast<unsigned long>(prog_fd),
                    "attach program to perf event");
}

}  // namespace rawprobe::sys
