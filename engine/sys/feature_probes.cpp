#include "engine/sys/feature_probes.h"

#include <cerrno>
#include <linux/bpf.h>
#include <unistd.h>
#include <vector>

#include "bpfasm/insn.h"
#include "engine/sys/bpf_link.h"
#include "engine/sys/bpf_map.h"
#include "engine/sys/bpf_prog.h"
#include "engine/sys/pmu.h"
#include "engine/sys/tracefs.h"
#include "engine/sys/uapi_compat.h"

namespace rawprobe::sys {

namespace {

using bpf::Instruction;
namespace op = bpf::op;

constexpr Instruction mov64_imm(uint8_t dst, int32_t imm) { return {op::ALU64 | op::MOV | op::K, dst, 0, 0, imm}; }
constexpr Instruction exit_insn() { return {op::JMP | op::EXIT, 0, 0, 0, 0}; }

}  // namespace

std::string cause(const Error& e) {
  if (e.err == 0) return e.what;
  return errno_name(e.err) + " from " + e.syscall;
}

Result<Fd> load_probe_program(uint32_t type, const std::vector<Instruction>& program, uint32_t expected_attach,
                              uint32_t attach_btf_id) {
  std::vector<bpf::Insn> slots = bpf::encode(program);
  ProgSpec spec;
  spec.type = type;
  spec.insns = slots;
  spec.name = "rawprobe_feat";
  spec.expected_attach_type = expected_attach;
  spec.attach_btf_id = attach_btf_id;
  return prog_load(spec);
}

std::vector<Instruction> return_zero_program() { return {mov64_imm(0, 0), exit_insn()}; }

namespace {

FeatureState loads(uint32_t type, const std::vector<Instruction>& program) {
  Result<Fd> prog = load_probe_program(type, program);
  if (!prog) return {false, cause(prog.error())};
  return {true, "program accepted"};
}

// A link attempt that must fail with `expected` (the kernel got past the attach type check
// into the link's own validation) for the feature to count as present.
FeatureState link_probe(const Result<Fd>& link, int expected, const char* kind) {
  if (link) return {true, std::string(kind) + " link created"};
  if (link.error().err == expected) return {true, errno_name(expected) + " on a dummy target, as expected"};
  return {false, cause(link.error())};
}

}  // namespace

FeatureState probe_tracefs() {
  Result<std::string> dir = tracefs_dir();
  if (!dir) return {false, "not mounted"};
  return {true, *dir};
}

FeatureState probe_pmu(const std::string& name) {
  Result<Pmu> pmu = cached_pmu(name);
  if (!pmu) return {false, "no /sys/bus/event_source/devices/" + name};
  return {true, "type " + std::to_string(pmu->type)};
}

FeatureState probe_uprobe_ref_ctr() {
  Result<Pmu> pmu = cached_pmu("uprobe");
  if (!pmu) return {false, "no uprobe PMU"};
  if (!pmu->ref_ctr_offset.present()) return {false, "no format/ref_ctr_offset"};
  return {true, "config:" + std::to_string(pmu->ref_ctr_offset.first) + "-" +
                    std::to_string(pmu->ref_ctr_offset.last)};
}

FeatureState probe_ringbuf() {
  MapSpec spec;
  spec.type = BPF_MAP_TYPE_RINGBUF;
  // One page: the smallest legal size (a power-of-2 multiple of the page size).
  spec.max_entries = static_cast<uint32_t>(::sysconf(_SC_PAGESIZE));
  spec.name = "rawprobe_feat";
  Result<Fd> map = map_create(spec);
  if (!map) return {false, cause(map.error())};
  return {true, "map created"};
}

// As libbpf's probe: a tracepoint program linked to fd -1. A kernel with perf links looks up
// the perf event and fails with EBADF; one without rejects the attach type with EINVAL.
FeatureState probe_perf_link() {
  Result<Fd> prog = load_probe_program(BPF_PROG_TYPE_TRACEPOINT, return_zero_program());
  if (!prog) return {false, cause(prog.error())};
  return link_probe(link_perf_event(prog->get(), -1), EBADF, "perf_event");
}

// A uprobe_multi program linked to "/" (not a regular file): EBADF from the link's path
// check on 6.6+; older kernels refuse the expected attach type at load time with EINVAL.
FeatureState probe_uprobe_multi() {
  Result<Fd> prog = load_probe_program(BPF_PROG_TYPE_KPROBE, return_zero_program(), uapi::kTraceUprobeMulti);
  if (!prog) return {false, cause(prog.error())};
  UprobeMultiSpec spec;
  spec.path = "/";
  spec.offsets = {0};
  return link_probe(link_uprobe_multi(prog->get(), spec), EBADF, "uprobe_multi");
}

// A kprobe_multi program linked to a function that does not exist: the symbol lookup fails
// with ESRCH (ftrace_lookup_symbols) on a kernel with kprobe_multi and CONFIG_FPROBE;
// EOPNOTSUPP means the kernel knows the link type but was built without fprobes.
FeatureState probe_kprobe_multi() {
  Result<Fd> prog = load_probe_program(BPF_PROG_TYPE_KPROBE, return_zero_program(), BPF_TRACE_KPROBE_MULTI);
  if (!prog) return {false, cause(prog.error())};
  KprobeMultiSpec spec;
  spec.symbols = {"rawprobe_feature_probe_no_such_function"};
  Result<Fd> link = link_kprobe_multi(prog->get(), spec);
  if (!link && link.error().err == ENOENT) return {true, "ENOENT on a dummy symbol, as expected"};
  return link_probe(link, ESRCH, "kprobe_multi");
}

// r1 = r10 - 8; r2 = 8; r3 = 0; call helper; r0 = 0; exit
FeatureState probe_helper(int32_t helper_id) {
  return loads(BPF_PROG_TYPE_KPROBE, {
                                         {op::ALU64 | op::MOV | op::X, 1, 10, 0, 0},
                                         {op::ALU64 | op::ADD | op::K, 1, 0, 0, -8},
                                         mov64_imm(2, 8),
                                         mov64_imm(3, 0),
                                         {op::JMP | op::CALL, 0, 0, 0, helper_id},
                                         mov64_imm(0, 0),
                                         exit_insn(),
                                     });
}

FeatureState probe_callback_helper(int32_t helper_id) {
  Result<Fd> prog = load_probe_program(BPF_PROG_TYPE_KPROBE, {mov64_imm(1, 0), mov64_imm(2, 0), mov64_imm(3, 0), mov64_imm(4, 0),
                                                {op::JMP | op::CALL, 0, 0, 0, helper_id}, mov64_imm(0, 0),
                                                exit_insn()});
  if (prog) return {true, "program accepted"};
  if (prog.error().err == EACCES) return {true, "known (EACCES for scalar arguments)"};
  return {false, cause(prog.error())};
}

// r0 = 0; loop: r0 += 1; if r0 != 4 goto loop; exit
FeatureState probe_bounded_loops() {
  return loads(BPF_PROG_TYPE_SOCKET_FILTER, {
                                                mov64_imm(0, 0),
                                                {op::ALU64 | op::ADD | op::K, 0, 0, 0, 1},
                                                {op::JMP | op::JNE | op::K, 0, 0, -2, 4},
                                                exit_insn(),
                                            });
}

// One instruction that only the given ISA version has, between r0 = 0 and exit.
FeatureState probe_isa(int version) {
  Instruction probe;
  if (version == 2)
    probe = {op::JMP | op::JLT | op::K, 0, 0, 0, 1};  // if r0 < 1 goto +0
  else if (version == 3)
    probe = {op::JMP32 | op::JLT | op::K, 0, 0, 0, 1};  // if w0 < 1 goto +0
  else
    probe = {op::ALU64 | op::MOV | op::X, 0, 0, 8, 0};  // r0 = (s8)r0 (MOVSX: off = 8)
  return loads(BPF_PROG_TYPE_SOCKET_FILTER, {mov64_imm(0, 0), probe, exit_insn()});
}

// A perf_event program that looks up a key in a hash map created with BPF_F_NO_PREALLOC.
// Before 6.1 ("bpf: Relax the requirement to use preallocated hash maps in tracing progs",
// with the hash map's move to bpf_mem_alloc) the verifier refuses that pairing with EINVAL
// ("perf_event programs can only use preallocated hash map"), and the other tracing types
// only with a kernel warning, because allocating from a probe that may sit inside the
// allocator was unsafe. Since then an element comes from a per-CPU cache that any context may
// use, so the map need not be filled in advance.
FeatureState probe_hash_on_demand() {
  MapSpec spec;
  spec.type = BPF_MAP_TYPE_HASH;
  spec.key_size = 8;
  spec.value_size = 8;
  spec.max_entries = 1;
  spec.flags = BPF_F_NO_PREALLOC;
  spec.name = "rawprobe_feat";
  Result<Fd> map = map_create(spec);
  if (!map) return {false, cause(map.error())};
  // r1 = map; *(u64 *)(r10 - 8) = 0; r2 = r10 - 8; call map_lookup_elem; r0 = 0; exit
  return loads(BPF_PROG_TYPE_PERF_EVENT, {
                                             {op::LD_IMM64, 1, op::PSEUDO_MAP_FD, 0, map->get()},
                                             {op::ST | op::MEM | op::DW, 10, 0, -8, 0},
                                             {op::ALU64 | op::MOV | op::X, 2, 10, 0, 0},
                                             {op::ALU64 | op::ADD | op::K, 2, 0, 0, -8},
                                             {op::JMP | op::CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem},
                                             mov64_imm(0, 0),
                                             exit_insn(),
                                         });
}

}  // namespace rawprobe::sys
