// BPF programs: BPF_PROG_LOAD with the verifier log policy (DESIGN.md practice 8), and
// BPF_PROG_TEST_RUN.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "bpfasm/insn.h"
#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

// One function of a program with subprograms: where it starts (instruction slot) and its
// FUNC type in the program's BTF (struct bpf_func_info).
struct FuncInfo {
  uint32_t insn_off = 0;
  uint32_t type_id = 0;
};

struct ProgSpec {
  uint32_t type = 0;                   // BPF_PROG_TYPE_*
  std::span<const bpf::Insn> insns;    // raw slots: a 64-bit immediate load takes two
  std::string license = "GPL";         // GPL-only helpers (probe_read_*, ...) need GPL
  std::string name;                    // first 15 bytes of [A-Za-z0-9_.]; others become '_'
  uint32_t expected_attach_type = 0;   // BPF_TRACE_UPROBE_MULTI, BPF_TRACE_KPROBE_MULTI, ...
  uint32_t flags = 0;                  // BPF_F_* prog_flags
  int btf_fd = -1;                     // with func_info: the BTF its type ids are in
  std::span<const FuncInfo> func_info; // every function, when the program has subprograms
  // fentry/fexit/iter (BPF_PROG_TYPE_TRACING): the kernel function's BTF id, and for a
  // module's function the fd of that module's BTF object (-1: vmlinux).
  uint32_t attach_btf_id = 0;
  int attach_btf_obj_fd = -1;
};

// Verifier log buffer sizes: the first retry's size, and the cap past which the log is kept
// truncated rather than grown (small machines must not allocate unbounded logs).
inline constexpr size_t kVerifierLogStart = 64 * 1024;
inline constexpr size_t kVerifierLogCap = 16 * 1024 * 1024;

// Loads without a log (fast path). On failure, loads again at log level 1, growing the log
// buffer on ENOSPC up to kVerifierLogCap, and returns the first attempt's error with the
// verifier's log in Error::detail.
Result<Fd> prog_load(const ProgSpec& spec);

// For teaching and debugging: loads with the log at `log_level` (1 or 2) from the start and
// hands back the log whether or not the program was accepted.
Result<Fd> prog_load_logged(const ProgSpec& spec, uint32_t log_level, std::string& log);

struct TestRunSpec {
  std::span<const uint8_t> data_in;  // packet for socket_filter/xdp/...
  std::span<uint8_t> data_out;       // may be empty
  std::span<const uint8_t> ctx_in;   // context for raw_tracepoint/syscall programs
  uint32_t repeat = 1;
  uint32_t flags = 0;  // BPF_F_TEST_RUN_ON_CPU ...
};

struct TestRunResult {
  uint32_t retval = 0;
  uint32_t duration_ns = 0;  // average per repetition
  uint32_t data_size_out = 0;
};

// BPF_PROG_TEST_RUN: runs a loaded program once (or `repeat` times) on the given input.
Result<TestRunResult> prog_test_run(int prog_fd, const TestRunSpec& spec);

}  // namespace rawprobe::sys
