// interval:s|ms|us|hz:N — one cpu-clock sampling event on one CPU: the block runs once per
// period in total (bpftrace's interval), in the context of whatever that CPU was running.
#include "engine/probes/perf_sampling.h"
#include "engine/probes/providers.h"

namespace rawprobe::probes {
namespace {

class IntervalProvider final : public Provider {
 public:
  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext&) const override {
    Result<AttachPoint> p = timer_point(spec, /*every_cpu=*/false);
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
};

}  // namespace

const Provider& interval_provider() {
  static const IntervalProvider provider;
  return provider;
}

}  // namespace rawprobe::probes
