// The capabilities this process holds, read with capget(2), and the error that names one it
// lacks. rawprobe runs without root when it holds the capabilities its run needs (bpftrace
// does since 0.25); checking them before anything is loaded turns a late EPERM from some
// syscall into an error that names the capability and how to grant it.
#pragma once
#include <string>

#include "engine/base/result.h"

namespace rawprobe::sys {

// Numbers from <linux/capability.h>; spelled here because CAP_BPF and CAP_PERFMON (Linux 5.8)
// are missing from older headers.
enum class Capability : int {
  dac_override = 1,     // write a file its mode does not let this user write (tracefs)
  dac_read_search = 2,  // read or search what its mode does not let this user read
  sys_ptrace = 19,      // another user's /proc/PID/maps and mem
  sys_admin = 21,       // the kernel's catch-all; stands in for CAP_BPF and CAP_PERFMON
  perfmon = 38,         // perf events, and the program types that tracing attaches
  bpf = 39,             // maps and programs
};

// "CAP_BPF"
const char* capability_name(Capability cap);

// Whether the effective set holds `cap` (capget on this process).
bool has_capability(Capability cap);

// The kernel's bpf_capable() and perfmon_capable(): CAP_SYS_ADMIN is accepted in their place.
bool bpf_capable();
bool perfmon_capable();

// "`what` needs CAP_X", with a hint to grant it (setcap on the binary, or run as root).
// `grant` lists every capability the run needs, so the setcap line is complete.
Error missing_capability(Capability cap, const std::string& what, const std::string& grant);

}  // namespace rawprobe::sys
