// interval:s|ms|us|hz:N — one cpu-clock sampling event on one CPU: the block runs once per
// period in total (bpftrace's interval), in the context of whatever that CPU was running.
#include "engine/probes/providers.h"
#include "engine/probes/timer_provider.h"

namespace rawprobe::probes {

const Provider& interval_provider() {
  static const TimerProvider provider(/*every_cpu=*/false);
  return provider;
}

}  // namespace rawprobe::probes
