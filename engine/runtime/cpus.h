// CPU counts the runtime sizes things by: per-CPU map values hold one slot per POSSIBLE CPU
// (the kernel copies num_possible_cpus() values out of a per-CPU lookup), while perf
// buffers can only be opened on ONLINE CPUs.
#pragma once
#include <cstdint>

#include "engine/base/result.h"

namespace rawprobe::runtime {

// Highest possible CPU + 1, from /sys/devices/system/cpu/possible ("0-3"). Like libbpf's
// libbpf_num_possible_cpus(), the highest id counts, so a sparse mask is sized by its end.
Result<uint32_t> possible_cpus();

}  // namespace rawprobe::runtime
