// The kernel's CPU lists ("0-3,6", "0"), as /sys/devices/system/cpu/{online,possible} print
// them: read by the sampling probes (which CPUs get an event) and the runtime (how many
// per-CPU slots a map value has).
#pragma once
#include <string_view>
#include <vector>

#include "engine/base/result.h"

namespace rawprobe {

Result<std::vector<int>> parse_cpu_list(std::string_view text);

}  // namespace rawprobe
