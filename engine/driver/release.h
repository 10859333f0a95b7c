// Releasing probe attachments at the end of a run, all at once.
#pragma once

#include <memory>
#include <vector>

#include "engine/probes/provider.h"

namespace rawprobe::driver {

// Resets every handle (detaching its probes) and returns once all are released. Each
// uprobe perf event or link the kernel tears down waits out an RCU grace period
// (uprobe_unregister_sync: tens of ms on a VM), and one after another those waits were most
// of a short `-c` run; released from a thread each, they overlap. `one_by_one` keeps them
// in order on this thread (--trace-syscalls, so its lines stay in a readable order).
void release_together(std::vector<std::unique_ptr<probes::Attachment>*> handles, bool one_by_one);

}  // namespace rawprobe::driver
