// The provider behind software:EVENT[:COUNT] and hardware:EVENT[:COUNT]: both sample a named
// perf event on every online CPU and differ only in their table of events (software.cpp,
// hardware.cpp) and its PERF_TYPE_*.
#pragma once
#include <cstdint>
#include <span>
#include <string_view>

#include "engine/probes/provider.h"

namespace rawprobe::probes {

struct NamedEvent {
  std::string_view name;
  std::string_view alias;  // empty when none
  uint64_t config;         // PERF_COUNT_SW_* / PERF_COUNT_HW_*
  uint64_t default_count;  // sample period when the probe gives none
};

class PerfEventProvider final : public Provider {
 public:
  PerfEventProvider(std::span<const NamedEvent> events, uint32_t perf_type)
      : events_(events), perf_type_(perf_type) {}
  // EVENT or EVENT:COUNT, the event by its perf name or bpftrace's alias
  bool parse(const std::vector<std::string>& parts, lang::ProbeSpec& out,
             std::string& error) const override;
  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext& ctx) const override;
  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points,
                                             std::span<const int> prog_fds,
                                             const AttachOptions& options) const override;
  // NAME: lines (bpftrace's form, the count being optional), each event by its perf name.
  Status list(const ListRequest& request, ListSink& sink) const override;
  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options,
                 FILE* out) const override;

 private:
  std::span<const NamedEvent> events_;
  uint32_t perf_type_;
};

}  // namespace rawprobe::probes
