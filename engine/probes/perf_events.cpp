#include "engine/probes/perf_events.h"

#include "elf/symbol_match.h"
#include "engine/probes/perf_sampling.h"

namespace rawprobe::probes {

Result<std::vector<AttachPoint>> expand_named_event(const lang::ProbeSpec& spec,
                                                    std::span<const NamedEvent> events,
                                                    uint32_t perf_type) {
  const char* kind = lang::probe_kind_name(spec.kind);
  for (const NamedEvent& e : events) {
    if (spec.event != e.name && spec.event != e.alias) continue;
    uint64_t count = spec.has_value ? spec.value : e.default_count;
    std::string name = std::string(kind) + ":" + spec.event + ":" + std::to_string(count);
    return std::vector<AttachPoint>{
        sampling_point(spec.kind, name, perf_type, e.config, count, false, true)};
  }
  return make_error("unknown " + std::string(kind) + " event '" + spec.event + "'", spec.raw,
                    "list them with -l '" + std::string(kind) + ":*'");
}

void list_named_events(const ListRequest& request, std::span<const NamedEvent> events,
                       ListSink& sink) {
  std::string pattern = request.parts.empty() ? "*" : request.parts[0];
  for (const NamedEvent& e : events)
    if (elf::glob_match(pattern, e.name) || (!e.alias.empty() && elf::glob_match(pattern, e.alias)))
      sink.line(request.provider + ":" + std::string(e.name) + ":");
}

}  // namespace rawprobe::probes
