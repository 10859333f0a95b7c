// BPF_ENABLE_STATS (Linux 5.8): while the returned fd is open, the kernel counts each
// program's runs and the nanoseconds they took (bpf_prog_info's run_cnt and run_time_ns,
// read with prog_info), as `sysctl kernel.bpf_stats_enabled=1` does, without changing the
// sysctl for anyone else. The counting itself costs two clock reads per run.
#pragma once
#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

Result<Fd> enable_run_time_stats();

}  // namespace rawprobe::sys
