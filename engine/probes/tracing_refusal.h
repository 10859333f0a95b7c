// Why a kernel refuses fentry/fexit (BPF_PROG_TYPE_TRACING), said where it refuses: the
// errno alone ("Operation not permitted" as root) does not tell a user that a lockdown, an
// LSM or a sandbox's policy is the cause, nor what still works.
#pragma once
#include "engine/base/result.h"
#include "engine/lang/probe_spec.h"

namespace rawprobe::probes {

// The error with its hint replaced by the likely cause of err (EPERM: lockdown, an LSM, a
// seccomp or hypervisor policy; EOPNOTSUPP/ENOTSUPP: no direct calls or no trampoline for this
// architecture; ESRCH/ENOENT: the function or its BTF is gone) and what works instead: kprobes
// where the kernel has them, else tracepoints and raw tracepoints.
Error with_tracing_refusal_hint(Error error, lang::ProbeKind kind);

// Said once on stderr when `-l 'fentry:*'` lists from BTF alone (available_filter_functions
// unreadable), so the list may hold functions ftrace cannot patch.
void note_listing_from_btf_alone();

}  // namespace rawprobe::probes
