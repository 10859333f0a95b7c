// The individual feature probes behind features.h (internal to engine/sys). Each returns the
// state and a short detail; none is cached here.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "bpfasm/insn.h"
#include "engine/base/result.h"
#include "engine/sys/fd.h"
#include "engine/sys/features.h"

namespace rawprobe::sys {

// Helper ids from the uapi ___BPF_FUNC_MAPPER (5.5: "bpf: Add probe_read_{user, kernel}...").
inline constexpr int32_t kHelperProbeReadUser = 112;
inline constexpr int32_t kHelperSendSignal = 109;
inline constexpr int32_t kHelperJiffies64 = 118;
inline constexpr int32_t kHelperProbeReadKernel = 113;
inline constexpr int32_t kHelperForEachMapElem = 164;
inline constexpr int32_t kHelperLoop = 181;
inline constexpr int32_t kHelperKtimeGetBootNs = 125;
inline constexpr int32_t kHelperKtimeGetTaiNs = 208;
inline constexpr int32_t kHelperGetNsCurrentPidTgid = 120;
inline constexpr int32_t kHelperProbeWriteUser = 36;

FeatureState probe_tracefs();
FeatureState probe_pmu(const std::string& name);
FeatureState probe_uprobe_ref_ctr();
FeatureState probe_ringbuf();
FeatureState probe_perf_link();
FeatureState probe_uprobe_multi();
FeatureState probe_kprobe_multi();
FeatureState probe_helper(int32_t helper_id);
// A helper that takes a callback (or other memory): called with scalars only, a kernel that
// has it refuses the arguments (EACCES), one that lacks it the call (EINVAL).
FeatureState probe_callback_helper(int32_t helper_id);
FeatureState probe_bounded_loops();
FeatureState probe_isa(int version);  // 2, 3 or 4
FeatureState probe_hash_on_demand();
FeatureState probe_kernel_btf();  // feature_kernel_btf.cpp
// Why a probe failed, for the detail column: "EINVAL from bpf(BPF_PROG_LOAD)".
std::string cause(const Error& e);
// Loads one probe's program (named rawprobe_feat), to be closed when the probe is done.
Result<Fd> load_probe_program(uint32_t type, const std::vector<bpf::Instruction>& program,
                              uint32_t expected_attach = 0, uint32_t attach_btf_id = 0);
// r0 = 0; exit: a program the verifier accepts for any program type.
std::vector<bpf::Instruction> return_zero_program();
FeatureState probe_trampoline();  // feature_tracing.cpp
FeatureState probe_bpf_iter();    // feature_tracing.cpp
FeatureState probe_openat2();     // rooted_open.cpp
FeatureState probe_breakpoint();  // feature_tracing.cpp

}  // namespace rawprobe::sys
