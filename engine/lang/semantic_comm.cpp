// comm(pid), bpftrace 0.26.1 (docs/stdlib.md): the name of the process with that pid, read in
// the kernel as bpftrace reads it, through the bpf_task_from_pid kfunc (Linux 6.2), which
// gives a counted reference to the task; task->comm is copied and the reference is handed
// back with bpf_task_release. The verifier lets only some program types call these kfuncs:
// tracing programs (fentry, fexit, iter) since 6.2, tracepoint and perf_event programs since
// 6.12 (kernel commit bc638d8cb5be); never kprobe programs, so neither kprobes nor uprobes.
// The kfuncs' BTF ids (in e.int_value: from_pid, release << 32) and comm's offset (in
// e.field_offset) come from the kernel's BTF here, so codegen needs no BTF of its own.
// comm() without an argument is the comm builtin.
#include "engine/base/type_names.h"
#include "engine/ctypes/ctype.h"
#include "engine/lang/preprocess.h"
#include "engine/lang/semantic_internal.h"
#include "engine/probes/btf_functions.h"

namespace rawprobe::lang {
namespace {

bool may_call_task_kfuncs(ProbeKind k) {
  probes::ProgramType t = probes::program_type(k);
  return t == probes::ProgramType::Tracepoint || t == probes::ProgramType::PerfEvent ||
         t == probes::ProgramType::Tracing;
}

}  // namespace

void Checker::call_comm(Expr& e) {
  if (!arg_count(e)) return;
  if (e.operands.empty()) {
    e.kind = ExprKind::Builtin;
    return check(e, Use::Value);
  }
  Expr& pid = *e.operands[0];
  check(pid, Use::Value);
  if (pid.type.kind == TypeKind::None) return;
  if (!pid.type.is_integer())
    return error(pid.span, "comm()'s argument is a pid, an integer (" + argument_type_name(pid.type) + " given)");
  e.type = Type::string(16);  // TASK_COMM_LEN
  if (!all_specs(may_call_task_kfuncs))
    return error(e.span, "comm(pid) works in tracepoint, profile, interval, software, fentry, fexit and iter "
                         "probes, whose programs may call the kernel's bpf_task_from_pid kfunc; not in " +
                             probe_kinds_text() + " probes (use comm, the current task's, there)");
  uint32_t from_pid = probes::vmlinux_function_id("bpf_task_from_pid");
  uint32_t release = probes::vmlinux_function_id("bpf_task_release");
  if (!from_pid || !release)
    return error(e.span, std::string("comm(pid) needs the kernel's bpf_task_from_pid and bpf_task_release kfuncs "
                                     "(Linux 6.2), ") +
                             (kernel_has_btf() ? "which this kernel's BTF does not have"
                                               : "which programs call through the kernel's BTF, and this kernel has "
                                                 "none (built without CONFIG_DEBUG_INFO_BTF)"));
  ctypes::CTypeRef task = resolve_type(TypeName{ctypes::CKind::Struct, "task_struct", 0, e.span});
  if (!task) return;
  std::optional<ctypes::CMember> comm = ctypes::find_member(task, "comm");
  if (!comm) return error(e.span, "comm(pid): the kernel's struct task_struct has no comm member");
  e.int_value = uint64_t(from_pid) | uint64_t(release) << 32;
  e.field_offset = comm->bit_offset / 8;
}

}  // namespace rawprobe::lang
