// BPF_RAW_TRACEPOINT_OPEN (Linux 4.17): a BPF_PROG_TYPE_RAW_TRACEPOINT program on a kernel
// tracepoint, found by its name alone ("sched_switch", "sys_enter"). The returned fd is the
// attachment (a bpf_link since 5.7): closing it detaches the program.
//
// The program's context is the tracepoint's arguments as the kernel passes them to its
// probes, each widened to a u64 (struct bpf_raw_tracepoint_args { __u64 args[0]; }):
//   ctx + 0: arg0   ctx + 8: arg1   ...   (TP_PROTO's parameters in order, at most 12)
#pragma once
#include <string>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

// Attaches `prog_fd` (loaded as BPF_PROG_TYPE_RAW_TRACEPOINT) to the tracepoint `name`.
Result<Fd> raw_tracepoint_open(const std::string& name, int prog_fd);

}  // namespace rawprobe::sys
