// strace-style decoding of the calls invoke() makes (--trace-syscalls). The decoder reads the
// very attr the kernel is handed, so what it prints cannot drift from what was done:
//   bpf(BPF_MAP_CREATE, {map_type=BPF_MAP_TYPE_ARRAY, key_size=4, ...}, 72) = 3
//   perf_event_open({type=9 /* uprobe */, size=72, config1="/bin/x", config2=0x1139, ...},
//                   pid=-1, cpu=0, group_fd=-1, flags=PERF_FLAG_FD_CLOEXEC) = 5
//   ioctl(5, PERF_EVENT_IOC_SET_BPF, 4) = 0
//   write("/sys/kernel/tracing/uprobe_events", "p:rawprobe_12_0 /bin/x:0x1139\n") = 31
//   pwrite64(7</proc/1234/mem>, [0x1], 2, 0x5566778899aa) = 2
//   mount("nodev", "/sys/kernel/tracing", "tracefs", MS_NOSUID|MS_NODEV|MS_NOEXEC, NULL) = 0
// A failure ends in "= -1 EPERM (Operation not permitted)".
#pragma once
#include <string>

#include "engine/sys/call.h"

namespace rawprobe::sys {

// The call's name and arguments, without the result: "bpf(BPF_PROG_LOAD, {...}, 128)".
std::string describe_request(const Call& call);
// The whole line: request, " = ", result (and the values the kernel wrote back, if any).
std::string describe_call(const Call& call, const Outcome& outcome);
// The short syscall label an Error carries: "bpf(BPF_PROG_LOAD)", "perf_event_open",
// "ioctl(PERF_EVENT_IOC_SET_BPF)", "write(/sys/kernel/tracing/uprobe_events)",
// "pwrite64(/proc/1234/mem)", "mount(tracefs, /sys/kernel/tracing)".
std::string call_label(const Call& call);

}  // namespace rawprobe::sys
