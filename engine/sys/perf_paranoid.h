// kernel.perf_event_paranoid, and whether this kernel's value shuts this process out of
// perf_event_open altogether.
//
// Upstream Linux reads the sysctl as -1, 0, 1 or 2; a larger value acts as 2 (per-task
// user-space events stay open to anyone, CAP_PERFMON opens the rest). Debian and Android
// patch in a level 3 (CONFIG_SECURITY_PERF_EVENTS_RESTRICT, Debian's default) at which
// perf_event_open refuses with EACCES every caller without CAP_SYS_ADMIN, before it looks at
// the event. The value alone does not tell which kernel this is, so the kernel is asked.
#pragma once

namespace rawprobe::sys {

// The sysctl's value; 2, upstream's default, when it cannot be read.
int perf_event_paranoid();

// Whether perf_event_open refuses this process every event, so that opening any (tracepoint,
// profile, a legacy probe's event...) needs CAP_SYS_ADMIN. Only a paranoid value above 2 can
// do that, and only where this process lacks CAP_SYS_ADMIN: then it opens the most harmless
// event there is, a disabled software dummy on itself, user space only, which upstream allows
// any user at every level. EACCES is the patched kernel's refusal. Asked once; the answer
// is cached.
bool perf_events_refused();

}  // namespace rawprobe::sys
