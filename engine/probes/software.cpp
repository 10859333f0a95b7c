// software:EVENT[:COUNT]: the kernel's software perf events (PERF_TYPE_SOFTWARE), sampled on
// every online CPU; the block runs every COUNT occurrences.
#include <linux/perf_event.h>

#include "engine/probes/perf_events.h"
#include "engine/probes/providers.h"

namespace rawprobe::probes {
namespace {

// Names and aliases as bpftrace 0.17 accepts them; default counts are bpftrace's.
constexpr NamedEvent kSoftware[] = {
    {"alignment-faults", "", PERF_COUNT_SW_ALIGNMENT_FAULTS, 1},
    {"bpf-output", "", PERF_COUNT_SW_BPF_OUTPUT, 1},
    {"context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES, 1000},
    {"cpu-clock", "cpu", PERF_COUNT_SW_CPU_CLOCK, 1000000},
    {"cpu-migrations", "", PERF_COUNT_SW_CPU_MIGRATIONS, 1},
    {"dummy", "", PERF_COUNT_SW_DUMMY, 1},
    {"emulation-faults", "", PERF_COUNT_SW_EMULATION_FAULTS, 1},
    {"major-faults", "", PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1},
    {"minor-faults", "", PERF_COUNT_SW_PAGE_FAULTS_MIN, 100},
    {"page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS, 100},
    {"task-clock", "", PERF_COUNT_SW_TASK_CLOCK, 1000000},
};

}  // namespace

const Provider& software_provider() {
  static const PerfEventProvider provider(kSoftware, PERF_TYPE_SOFTWARE);
  return provider;
}

}  // namespace rawprobe::probes
