// The pid namespace rawprobe runs in, as /proc/self/ns/pid names it: the device and inode
// bpf_get_ns_current_pid_tgid takes to give ids as seen from it.
#pragma once
#include <cstdint>

#include "engine/base/result.h"

namespace rawprobe::sys {

struct PidNamespace {
  uint64_t dev = 0;
  uint64_t ino = 0;
  bool initial = false;  // the initial namespace (the kernel's PROC_PID_INIT_INO)
};

Result<PidNamespace> own_pid_namespace();

}  // namespace rawprobe::sys
