// Symbolic names of the uapi constants engine/sys passes to the kernel, for --trace-syscalls
// and error messages. Values come from <linux/bpf.h> and <linux/perf_event.h> themselves
// (stringified enumerators), plus the few newer than the 6.1 headers, marked with their
// kernel version.
#pragma once
#include <cstdint>
#include <string>

namespace rawprobe::sys {

// Each returns the enumerator's name, or the number in decimal when it is unknown.
std::string bpf_cmd_name(uint32_t cmd);
std::string map_type_name(uint32_t type);
std::string prog_type_name(uint32_t type);
std::string attach_type_name(uint32_t type);
std::string perf_type_name(uint32_t type);          // PERF_TYPE_*, or a dynamic PMU's name
std::string perf_sw_config_name(uint64_t config);   // PERF_COUNT_SW_*
std::string perf_ioctl_name(unsigned long request);  // PERF_EVENT_IOC_*

}  // namespace rawprobe::sys
