// Whether the user asked the run to stop (SIGINT, SIGTERM or SIGHUP) while it is still busy
// attaching. The run blocks those signals and reads them from a signalfd in its event loop
// (runtime/stop_signals.h), so during a long attach they only wait, pending: a loop over
// hundreds of probes asks here between probes and stops early, leaving the signal for the
// event loop, which then ends the run as usual (END, maps, every attachment released).
#pragma once

namespace rawprobe::sys {

// Pending and not yet read; never true while the signals are not blocked (no run is on).
bool stop_requested();

}  // namespace rawprobe::sys
