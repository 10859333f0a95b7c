// The attach path shared by interval, profile, software and hardware: a sampling perf event
// (perf_event_open with a period or frequency) per CPU, each running the block's program on
// overflow. interval uses one CPU (its program must run once per period, not once per CPU
// per period), the others every online CPU.
#pragma once
#include <string>
#include <vector>

#include "engine/probes/provider.h"

namespace rawprobe::probes {

// The online CPUs (/sys/devices/system/cpu/online, e.g. "0-3,6").
Result<std::vector<int>> online_cpus();

Result<std::unique_ptr<Attachment>> attach_sampling(std::span<const AttachPoint> points,
                                                    std::span<const int> prog_fds);

// A sampling AttachPoint for software/hardware/interval/profile with its name.
AttachPoint sampling_point(ProbeKind kind, std::string name, uint32_t type, uint64_t config,
                           uint64_t period, bool frequency, bool every_cpu);

// interval/profile's UNIT:N into out.unit / out.value (Provider::parse).
Status parse_timer_spec(const std::vector<std::string>& parts, lang::ProbeSpec& out);
// "hz" -> frequency; "s"/"ms"/"us" -> the period in nanoseconds of the cpu-clock.
Result<AttachPoint> timer_point(const lang::ProbeSpec& spec, bool every_cpu);

// --explain of a sampling probe: the perf event each point opens, and on which CPUs.
Status explain_sampling(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out);

// interval/profile listings: NAME:UNIT: for each unit.
void list_timer_units(const ListRequest& request, ListSink& sink);

}  // namespace rawprobe::probes
