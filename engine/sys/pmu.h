// Dynamic PMUs (uprobe, kprobe) as the kernel publishes them under
// /sys/bus/event_source/devices/NAME: a `type` number for perf_event_attr.type, and `format/`
// files telling which bits of attr.config carry options, e.g. format/retprobe = "config:0"
// and (since 4.20) format/ref_ctr_offset = "config:32-63".
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/base/result.h"

namespace rawprobe::sys {

// A bit range of perf_event_attr.config, as a PMU format file declares it.
struct ConfigBits {
  int first = -1;  // -1: the PMU does not declare this field
  int last = -1;
  bool present() const { return first >= 0; }
  // `value` shifted into place; the caller checks that it fits (fits()).
  uint64_t place(uint64_t value) const;
  bool fits(uint64_t value) const;
  uint64_t extract(uint64_t config) const;
};

struct Pmu {
  std::string name;  // "uprobe", "kprobe"
  uint32_t type = 0;
  ConfigBits retprobe;
  ConfigBits ref_ctr_offset;
};

// Parses "config:0" or "config:32-63" (the only forms the probe PMUs use).
Result<ConfigBits> parse_config_bits(std::string_view format_text);

// Reads the PMU from host_path("/sys/bus/event_source/devices/" + name) and remembers it
// for pmu_by_type(). ENOENT (no such PMU) is an Error with a hint.
Result<Pmu> read_pmu(const std::string& name);

// read_pmu once per name per process; later calls return the first answer (feature probes
// run once, DESIGN.md practice 6).
Result<Pmu> cached_pmu(const std::string& name);

// A PMU read before, by its attr.type; nullptr if none was read. --trace-syscalls uses this
// to decode config/config1/config2 of a uprobe or kprobe perf event.
const Pmu* pmu_by_type(uint32_t type);

}  // namespace rawprobe::sys
