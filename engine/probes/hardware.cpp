// hardware:EVENT[:COUNT]: CPU performance counters (PERF_TYPE_HARDWARE) sampled on every
// online CPU. A kernel or VM without a hardware PMU refuses them (ENOENT/EOPNOTSUPP);
// perf_sampling.cpp turns that into an error that says so.
#include <linux/perf_event.h>

#include "engine/probes/perf_events.h"
#include "engine/probes/providers.h"

namespace rawprobe::probes {
namespace {

constexpr NamedEvent kHardware[] = {
    {"backend-stalls", "", PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1000000},
    {"branch-instructions", "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100000},
    {"branch-misses", "", PERF_COUNT_HW_BRANCH_MISSES, 100000},
    {"bus-cycles", "", PERF_COUNT_HW_BUS_CYCLES, 100000},
    {"cache-misses", "", PERF_COUNT_HW_CACHE_MISSES, 1000000},
    {"cache-references", "", PERF_COUNT_HW_CACHE_REFERENCES, 1000000},
    {"cpu-cycles", "cycles", PERF_COUNT_HW_CPU_CYCLES, 1000000},
    {"frontend-stalls", "", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1000000},
    {"instructions", "", PERF_COUNT_HW_INSTRUCTIONS, 1000000},
    {"ref-cycles", "", PERF_COUNT_HW_REF_CPU_CYCLES, 1000000},
};

}  // namespace

const Provider& hardware_provider() {
  static const PerfEventProvider provider(kHardware, PERF_TYPE_HARDWARE);
  return provider;
}

}  // namespace rawprobe::probes
