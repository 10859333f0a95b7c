// Errors of the syscall layer: an Error (engine/base/result.h) carrying the call's label
// ("bpf(BPF_PROG_LOAD)"), the errno, the object worked on and a hint that translates the
// errno for this particular call (DESIGN.md practice 7): EPERM -> "needs root or
// CAP_BPF+CAP_PERFMON", EILSEQ from a uprobe -> "offset is not on an instruction boundary".
#pragma once
#include <string>

#include "engine/base/result.h"
#include "engine/sys/call.h"

namespace rawprobe::sys {

// What to do about `err` returned by `call`; empty when nothing useful can be said.
std::string errno_hint(const Call& call, int err);

// The Error for a failed call.
Error call_error(std::string what, const Call& call, const Outcome& outcome, std::string object);

}  // namespace rawprobe::sys
