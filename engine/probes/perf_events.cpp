#include "engine/probes/perf_events.h"

#include <algorithm>

#include "elf/symbol_match.h"
#include "engine/lang/suggest.h"
#include "engine/probes/perf_sampling.h"

namespace rawprobe::probes {

bool PerfEventProvider::parse(const std::vector<std::string>& p, lang::ProbeSpec& out,
                              std::string& error) const {
  const char* kind = lang::probe_kind_name(out.kind);
  if (p.size() < 2 || p.size() > 3 || p[1].empty()) {
    error = std::string(kind) + " needs " + kind + ":EVENT[:COUNT]";
    return false;
  }
  // Each name, then its alias: the order suggestions are made in.
  std::vector<std::string> names;
  for (const NamedEvent& e : events_) {
    names.emplace_back(e.name);
    if (!e.alias.empty()) names.emplace_back(e.alias);
  }
  if (std::find(names.begin(), names.end(), p[1]) == names.end()) {
    error = "unknown " + std::string(kind) + " event '" + p[1] + "'" + lang::did_you_mean(p[1], names);
    return false;
  }
  out.event = p[1];
  if (p.size() == 3) {
    if (!lang::parse_probe_number(p[2], out.value) || out.value == 0) {
      error = "invalid " + std::string(kind) + " count '" + p[2] + "': write a positive integer";
      return false;
    }
    out.has_value = true;
  }
  return true;
}

Result<std::vector<AttachPoint>> PerfEventProvider::expand(const lang::ProbeSpec& spec,
                                                           const ExpandContext&) const {
  const char* kind = lang::probe_kind_name(spec.kind);
  for (const NamedEvent& e : events_) {
    if (spec.event != e.name && spec.event != e.alias) continue;
    uint64_t count = spec.has_value ? spec.value : e.default_count;
    std::string name = std::string(kind) + ":" + spec.event + ":" + std::to_string(count);
    return std::vector<AttachPoint>{
        sampling_point(spec.kind, name, perf_type_, e.config, count, false, true)};
  }
  return make_error("unknown " + std::string(kind) + " event '" + spec.event + "'", spec.raw,
                    "list them with -l '" + std::string(kind) + ":*'");
}

Result<std::unique_ptr<Attachment>> PerfEventProvider::attach(std::span<const AttachPoint> points,
                                                              std::span<const int> prog_fds,
                                                              const AttachOptions&) const {
  return attach_sampling(points, prog_fds);
}

Status PerfEventProvider::list(const ListRequest& request, ListSink& sink) const {
  std::string pattern = request.parts.empty() ? "*" : request.parts[0];
  for (const NamedEvent& e : events_)
    if (elf::glob_match(pattern, e.name) || (!e.alias.empty() && elf::glob_match(pattern, e.alias)))
      sink.line(request.provider + ":" + std::string(e.name) + ":");
  return {};
}

Status PerfEventProvider::explain(const lang::ProbeSpec& spec, const ExplainOptions& options,
                                  FILE* out) const {
  return explain_sampling(spec, options, out);
}

}  // namespace rawprobe::probes
