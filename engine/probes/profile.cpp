// profile:hz:N and profile:s|ms|us:N — a cpu-clock sampling event on every online CPU: the
// block runs on each CPU at that rate, interrupting whatever runs there (perf record -F).
#include "engine/probes/perf_sampling.h"
#include "engine/probes/providers.h"

namespace rawprobe::probes {
namespace {

class ProfileProvider final : public Provider {
 public:
  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext&) const override {
    Result<AttachPoint> p = timer_point(spec, /*every_cpu=*/true);
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

const Provider& profile_provider() {
  static const ProfileProvider provider;
  return provider;
}

}  // namespace rawprobe::probes
