// The capabilities a planned run needs, checked before anything is loaded: the first one
// missing is named in the error with the way to grant it, instead of an EPERM from whichever
// syscall happens to fail first, after maps and programs were already made.
#pragma once
#include <sys/types.h>

#include <vector>

#include "engine/base/result.h"
#include "engine/probes/provider.h"

namespace rawprobe::driver {

struct PlannedRun {
  // Per block; null before the probes are resolved: then only what needs no routes.
  const std::vector<std::vector<probes::AttachPoint>>* points = nullptr;
  probes::AttachOptions attach;
  bool attaching = false;  // false: programs are loaded but not attached (--dry-run, dumps)
};

// Bases (CAP_BPF, CAP_PERFMON) first, then what the attach routes ask for.
Status check_privileges(const PlannedRun& run);

// -p PID: whether this process may read PID's maps and files (CAP_SYS_PTRACE for another
// user's), asked before the probes are resolved, which reads them.
Status check_process_access(pid_t pid);

}  // namespace rawprobe::driver
