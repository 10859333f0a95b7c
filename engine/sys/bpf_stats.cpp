#include "engine/sys/bpf_stats.h"

#include <linux/bpf.h>

#include "engine/sys/bpf_call.h"

namespace rawprobe::sys {

Result<Fd> enable_run_time_stats() {
  union bpf_attr attr {};
  attr.enable_stats.type = BPF_STATS_RUN_TIME;
  return detail::bpf_new_fd(BPF_ENABLE_STATS, &attr, RAWPROBE_BPF_ATTR_END(enable_stats.type),
                            "count the programs' run time", "");
}

}  // namespace rawprobe::sys
