// The provider behind interval and profile: both are cpu-clock sampling events and differ only
// in where they run (interval: one CPU, once per period in total; profile: every online CPU).
#pragma once
#include "engine/probes/perf_sampling.h"
#include "engine/probes/provider.h"

namespace rawprobe::probes {

class TimerProvider final : public Provider {
 public:
  explicit TimerProvider(bool every_cpu) : every_cpu_(every_cpu) {}
  Status parse(const std::vector<std::string>& parts, lang::ProbeSpec& out) const override {
    return parse_timer_spec(parts, out);
  }
  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext&) const override {
    Result<AttachPoint> p = timer_point(spec, every_cpu_);
    if (!p) return p.error();
    return std::vector<AttachPoint>{std::move(*p)};
  }
  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points,
                                             std::span<const int> prog_fds,
                                             const AttachOptions&) const override {
    return attach_sampling(points, prog_fds);
  }
  Status list(const ListRequest& request, ListSink& sink) const override {
    list_timer_units(request, sink);
    return {};
  }
  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options,
                 FILE* out) const override {
    return explain_sampling(spec, options, out);
  }

 private:
  bool every_cpu_;
};

}  // namespace rawprobe::probes
