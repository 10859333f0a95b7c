// profile:hz:N and profile:s|ms|us:N — a cpu-clock sampling event on every online CPU: the
// block runs on each CPU at that rate, interrupting whatever runs there (perf record -F).
#include "engine/probes/providers.h"
#include "engine/probes/timer_provider.h"

namespace rawprobe::probes {

const Provider& profile_provider() {
  static const TimerProvider provider(/*every_cpu=*/true);
  return provider;
}

}  // namespace rawprobe::probes
