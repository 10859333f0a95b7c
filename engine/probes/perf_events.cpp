// software:EVENT[:COUNT] and hardware:EVENT[:COUNT]: one provider over two tables of named
// perf events, sampled on every online CPU; the block runs every COUNT occurrences.
//   software: the kernel's software events (PERF_TYPE_SOFTWARE)
//   hardware: CPU performance counters (PERF_TYPE_HARDWARE); a kernel or VM without a hardware
//             PMU refuses them (ENOENT/EOPNOTSUPP), and perf_sampling.cpp says so
#include "engine/probes/perf_events.h"

#include <linux/perf_event.h>

#include <algorithm>

#include "elf/symbol_match.h"
#include "engine/lang/suggest.h"
#include "engine/probes/perf_sampling.h"
#include "engine/probes/providers.h"

namespace rawprobe::probes {
namespace {

// perf's named events (perf_event_open(2)) with bpftrace 0.17's aliases and default counts;
// software: and hardware: each offer the rows of their type.
constexpr NamedEvent kNamedEvents[] = {
    {PERF_TYPE_SOFTWARE, "alignment-faults", "", PERF_COUNT_SW_ALIGNMENT_FAULTS, 1},
    {PERF_TYPE_SOFTWARE, "bpf-output", "", PERF_COUNT_SW_BPF_OUTPUT, 1},
    {PERF_TYPE_SOFTWARE, "context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES, 1000},
    {PERF_TYPE_SOFTWARE, "cpu-clock", "cpu", PERF_COUNT_SW_CPU_CLOCK, 1000000},
    {PERF_TYPE_SOFTWARE, "cpu-migrations", "", PERF_COUNT_SW_CPU_MIGRATIONS, 1},
    {PERF_TYPE_SOFTWARE, "dummy", "", PERF_COUNT_SW_DUMMY, 1},
    {PERF_TYPE_SOFTWARE, "emulation-faults", "", PERF_COUNT_SW_EMULATION_FAULTS, 1},
    {PERF_TYPE_SOFTWARE, "major-faults", "", PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1},
    {PERF_TYPE_SOFTWARE, "minor-faults", "", PERF_COUNT_SW_PAGE_FAULTS_MIN, 100},
    {PERF_TYPE_SOFTWARE, "page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS, 100},
    {PERF_TYPE_SOFTWARE, "task-clock", "", PERF_COUNT_SW_TASK_CLOCK, 1000000},
    {PERF_TYPE_HARDWARE, "backend-stalls", "", PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1000000},
    {PERF_TYPE_HARDWARE, "branch-instructions", "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100000},
    {PERF_TYPE_HARDWARE, "branch-misses", "", PERF_COUNT_HW_BRANCH_MISSES, 100000},
    {PERF_TYPE_HARDWARE, "bus-cycles", "", PERF_COUNT_HW_BUS_CYCLES, 100000},
    {PERF_TYPE_HARDWARE, "cache-misses", "", PERF_COUNT_HW_CACHE_MISSES, 1000000},
    {PERF_TYPE_HARDWARE, "cache-references", "", PERF_COUNT_HW_CACHE_REFERENCES, 1000000},
    {PERF_TYPE_HARDWARE, "cpu-cycles", "cycles", PERF_COUNT_HW_CPU_CYCLES, 1000000},
    {PERF_TYPE_HARDWARE, "frontend-stalls", "", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1000000},
    {PERF_TYPE_HARDWARE, "instructions", "", PERF_COUNT_HW_INSTRUCTIONS, 1000000},
    {PERF_TYPE_HARDWARE, "ref-cycles", "", PERF_COUNT_HW_REF_CPU_CYCLES, 1000000},
};

}  // namespace

PerfEventProvider::PerfEventProvider(uint32_t perf_type) : perf_type_(perf_type) {
  for (const NamedEvent& e : kNamedEvents)
    if (e.type == perf_type) events_.push_back(e);
}

const Provider& software_provider() {
  static const PerfEventProvider provider(PERF_TYPE_SOFTWARE);
  return provider;
}

const Provider& hardware_provider() {
  static const PerfEventProvider provider(PERF_TYPE_HARDWARE);
  return provider;
}

Status PerfEventProvider::parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const {
  const char* kind = lang::probe_kind_name(out.kind);
  if (p.size() < 2 || p.size() > 3 || p[1].empty()) {
    return make_error(std::string(kind) + " needs " + kind + ":EVENT[:COUNT]");
  }
  // Each name, then its alias: the order suggestions are made in.
  std::vector<std::string> names;
  for (const NamedEvent& e : events_) {
    names.emplace_back(e.name);
    if (!e.alias.empty()) names.emplace_back(e.alias);
  }
  if (std::find(names.begin(), names.end(), p[1]) == names.end()) {
    return make_error("unknown " + std::string(kind) + " event '" + p[1] + "'" + lang::did_you_mean(p[1], names));
  }
  out.event = p[1];
  if (p.size() == 3) {
    if (!lang::parse_probe_number(p[2], out.value) || out.value == 0) {
      return make_error("invalid " + std::string(kind) + " count '" + p[2] + "': write a positive integer");
    }
    out.has_value = true;
  }
  return {};
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
