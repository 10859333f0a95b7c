// Decoding of perf_event_open(attr, pid, cpu, group_fd, flags) for --trace-syscalls. For the
// probe PMUs the config words carry pointers and offsets, so they are decoded by PMU:
//   uprobe: config1 = path of the binary, config2 = file offset,
//           config bits (format/ref_ctr_offset) = USDT semaphore offset
//   kprobe: config1 = function name (or 0), config2 = offset in it (or the address)
#include <algorithm>
#include <cstring>
#include <linux/perf_event.h>

#include "engine/sys/decode_format.h"
#include "engine/sys/names.h"
#include "engine/sys/pmu.h"

namespace rawprobe::sys::decode_detail {

namespace {

perf_event_attr view_of(const perf_event_attr* attr) {
  perf_event_attr v;
  std::memset(&v, 0, sizeof v);
  if (!attr) return v;
  size_t size = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
  std::memcpy(&v, attr, std::min(size, sizeof v));
  return v;
}

void add_config(FieldList& f, const perf_event_attr& a) {
  const Pmu* pmu = pmu_by_type(a.type);
  if (a.type == PERF_TYPE_SOFTWARE) {
    f.add("config", perf_sw_config_name(a.config));
  } else if (a.type == PERF_TYPE_TRACEPOINT) {
    f.add("config", std::to_string(a.config) + " /* tracepoint id */");
  } else if (pmu && (pmu->name == "uprobe" || pmu->name == "kprobe")) {
    f.hex("config", a.config);
    if (pmu->retprobe.present()) f.num("retprobe", pmu->retprobe.extract(a.config));
    if (pmu->ref_ctr_offset.present())
      f.hex("ref_ctr_offset", pmu->ref_ctr_offset.extract(a.config));
    if (pmu->name == "uprobe") {
      f.str("config1", a.config1).hex("config2", a.config2);
    } else if (a.config1) {
      f.str("config1", a.config1).hex("config2", a.config2);
    } else {
      f.add("config1", "NULL").hex("config2", a.config2);
    }
    return;
  } else {
    f.hex("config", a.config);
  }
  if (a.config1) f.hex("config1", a.config1);
  if (a.config2) f.hex("config2", a.config2);
}

// The attr's single-bit flags that are set, e.g. "disabled|freq".
std::string bit_flags(const perf_event_attr& a) {
  std::string out;
  auto bit = [&out](bool set, const char* name) {
    if (!set) return;
    if (!out.empty()) out += '|';
    out += name;
  };
  bit(a.disabled, "disabled");
  bit(a.inherit, "inherit");
  bit(a.pinned, "pinned");
  bit(a.exclusive, "exclusive");
  bit(a.exclude_user, "exclude_user");
  bit(a.exclude_kernel, "exclude_kernel");
  bit(a.exclude_hv, "exclude_hv");
  bit(a.exclude_idle, "exclude_idle");
  bit(a.mmap, "mmap");
  bit(a.comm, "comm");
  bit(a.freq, "freq");
  bit(a.enable_on_exec, "enable_on_exec");
  bit(a.task, "task");
  bit(a.watermark, "watermark");
  bit(a.exclude_callchain_kernel, "exclude_callchain_kernel");
  bit(a.exclude_callchain_user, "exclude_callchain_user");
  return out.empty() ? "0" : out;
}

std::string open_flags(unsigned long flags) {
  return named_bits(flags, {{PERF_FLAG_FD_NO_GROUP, "PERF_FLAG_FD_NO_GROUP"},
                            {PERF_FLAG_FD_OUTPUT, "PERF_FLAG_FD_OUTPUT"},
                            {PERF_FLAG_PID_CGROUP, "PERF_FLAG_PID_CGROUP"},
                            {PERF_FLAG_FD_CLOEXEC, "PERF_FLAG_FD_CLOEXEC"}});
}

}  // namespace

std::string perf_request(const PerfOpenCall& c) {
  perf_event_attr a = view_of(c.attr);
  FieldList f;
  f.add("type", perf_type_name(a.type)).num("size", a.size);
  add_config(f, a);
  if (a.freq)
    f.num("sample_freq", a.sample_freq);
  else
    f.num("sample_period", a.sample_period);
  f.hex("sample_type", a.sample_type).add("flags", bit_flags(a));
  if (a.wakeup_events) f.num("wakeup_events", a.wakeup_events);
  return "perf_event_open(" + f.braces() + ", pid=" + std::to_string(c.pid) +
         ", cpu=" + std::to_string(c.cpu) + ", group_fd=" + std::to_string(c.group_fd) +
         ", flags=" + open_flags(c.flags) + ")";
}

}  // namespace rawprobe::sys::decode_detail
