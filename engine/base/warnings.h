// Whether "WARNING: ..." lines are printed: --no-warnings turns them off for the whole run,
// as bpftrace's does. Errors are never silenced.
#pragma once

namespace rawprobe {

bool warnings_enabled();
void disable_warnings();

}  // namespace rawprobe
