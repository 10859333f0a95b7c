// Whether the verifier lets programs of one type call a kernel function (kfunc): the kernel
// registers each kfunc for some program types only (register_btf_kfunc_id_set), and says so
// only when a program calls it. bpftrace 0.26.1's kfunc_allowed() asks the same question.
#pragma once
#include <cstdint>

#include "engine/base/result.h"

namespace rawprobe::sys {

// Loads `call kfunc; r0 = 0; exit` as a program of BPF_PROG_TYPE `prog_type`. The verifier
// checks that the kfunc is registered for the type before it looks at the arguments, so its
// "calling kernel function NAME is not allowed" answers no, and anything else (acceptance,
// or a complaint about arguments or an unreleased reference) yes. An error when the load
// could not ask (no privileges, no BPF).
Result<bool> kfunc_allowed(uint32_t prog_type, uint32_t kfunc_btf_id);

}  // namespace rawprobe::sys
