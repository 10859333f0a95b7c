// The provider behind software:EVENT[:COUNT] and hardware:EVENT[:COUNT]: both sample a named
// perf event on every online CPU and differ only in the PERF_TYPE_* of their events (one table,
// perf_events.cpp).
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/probes/provider.h"

namespace rawprobe::probes {

struct NamedEvent {
  uint32_t type;           // PERF_TYPE_SOFTWARE / PERF_TYPE_HARDWARE
  std::string_view name;
  std::string_view alias;  // empty when none
  uint64_t config;         // PERF_COUNT_SW_* / PERF_COUNT_HW_*
  uint64_t default_count;  // sample period when the probe gives none
};

class PerfEventProvider final : public Provider {
 public:
  // Over the named events of this PERF_TYPE_*.
  explicit PerfEventProvider(uint32_t perf_type);
  // EVENT or EVENT:COUNT, the event by its perf name or bpftrace's alias
  Status parse(const std::vector<std::string>& parts, lang::ProbeSpec& out) const override;
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
  std::vector<NamedEvent> events_;
  uint32_t perf_type_;
};

}  // namespace rawprobe::probes
