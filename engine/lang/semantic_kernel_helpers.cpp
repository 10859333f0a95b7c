// Functions that are one kernel helper each, with the kernel's rules checked here so a script
// that breaks them is refused at its place rather than by the verifier:
//   socket_cookie(sk)           bpf_get_socket_cookie(); tracing programs only (below)
//   percpu_kaddr("sym"[, cpu])  the address of a per-CPU kernel variable: bpf_this_cpu_ptr()
//                               or bpf_per_cpu_ptr() on the variable's BTF id
//   write_user(dst, src[, n])   bpf_probe_write_user(): unsafe, so only with --unsafe
// (docs/stdlib.md of bpftrace v0.26.1 for the first two; write_user is rawprobe's name for the
// helper, which 0.26.1 does not document.)
#include "engine/base/type_names.h"
#include "engine/btf/percpu_vars.h"
#include "engine/ctypes/script_types.h"
#include "engine/lang/semantic_internal.h"
#include "engine/symbols/kernel_symbols.h"

namespace rawprobe::lang {

namespace {
// BPF_PROG_TYPE_TRACING: the kernel gives these bpf_get_socket_ptr_cookie() for
// bpf_get_socket_cookie (kernel/trace/bpf_trace.c, tracing_prog_func_proto, Linux 5.12);
// kprobe, tracepoint, perf_event and raw tracepoint programs do not have the helper.
bool is_tracing_program(ProbeKind k) { return k == ProbeKind::Fentry || k == ProbeKind::Fexit || k == ProbeKind::Iter; }
}  // namespace

void Checker::call_socket_cookie(Expr& e) {
  if (!arg_count(e)) return;
  Expr& sk = *e.operands[0];
  check(sk, Use::Value);
  e.type = Type::integer(8, false);  // docs/stdlib.md: `uint64 socket_cookie(struct sock *sk)`
  for (const ProbeSpec& s : probe_->specs)
    if (!is_tracing_program(s.kind))
      return error(e.span, std::string("socket_cookie() calls bpf_get_socket_cookie(), which the kernel gives only to "
                                       "fentry, fexit and iter programs (Linux 5.12), not to ") +
                               probe_kind_name(s.kind) + " probes: trace the function with fentry and pass args.sk");
  if (sk.type.kind != TypeKind::None && !sk.type.is_pointer())
    error(sk.span, "socket_cookie() takes a socket pointer the kernel typed (args.sk of an fentry probe), not a " +
                       argument_type_name(sk.type));
}

void Checker::call_percpu_kaddr(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  Expr& name = *e.operands[0];
  if (!name.is_literal_string())
    return error(name.span, "percpu_kaddr() expects the variable's name as a string literal");
  if (e.operands.size() == 2 && e.operands[1]->type.kind != TypeKind::None && !e.operands[1]->type.is_integer())
    return error(e.operands[1]->span,
                 "percpu_kaddr() expects a CPU number (" + argument_type_name(e.operands[1]->type) + " provided)");
  Result<btf::PerCpuVar> var = btf::find_percpu_var(name.str);
  if (!var) return error(name.span, var.error().what + (var.error().hint.empty() ? "" : ": " + var.error().hint));
  // The verifier turns the BTF id into an address with kallsyms_lookup_name(), which finds a
  // variable only in a kernel built with CONFIG_KALLSYMS_ALL; without it the load fails with
  // "ldimm64 failed to find the address for kernel symbol". /proc/kallsyms lists the same.
  if (Result<uint64_t> at = symbols::kernel_symbol_address(name.str); !at)
    return error(name.span, "percpu_kaddr(\"" + name.str + "\"): the kernel finds a per-CPU variable's address "
                            "through kallsyms, which has no '" + name.str + "' here (/proc/kallsyms lists no such symbol: a kernel built without "
                            "CONFIG_KALLSYMS_ALL lists no variables)");
  e.int_value = var->btf_id;
  // docs/stdlib.md: `uint64 *percpu_kaddr(const string name)`; a struct is reached by a cast.
  e.type = c_value(c_types().pointer_to(c_types().base_type("unsigned long")), false, e.span);
}

void Checker::call_write_user(Expr& e) {
  unsafe_allowed(e);
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  e.type = Type::integer(8, true);  // the helper's result: 0, or a negative errno
  for (const ProbeSpec& s : probe_->specs)
    if (s.kind == ProbeKind::Begin || s.kind == ProbeKind::End)
      return error(e.span, std::string("write_user() writes the traced task's memory, and \"") +
                               probe_kind_name(s.kind) + "\" probes run in rawprobe itself");
  const Type& dst = e.operands[0]->type;
  const Type& src = e.operands[1]->type;
  if (dst.kind == TypeKind::None || src.kind == TypeKind::None) return;
  if (!dst.is_scalar())
    return error(e.operands[0]->span, "write_user() writes to an address: an integer or a pointer (" +
                                          argument_type_name(dst) + " provided)");
  if (!src.is_integer() && !src.is_string())
    return error(e.operands[1]->span,
                 "write_user() writes an integer or a string (" + argument_type_name(src) + " provided)");
  // Bytes written: the integer's size, the string's (its NUL included), or fewer by the third
  // argument, which must be known here so the verifier sees a bounded length.
  uint32_t size = src.size;
  if (e.operands.size() == 3) {
    const Expr& n = *e.operands[2];
    if (n.kind != ExprKind::Integer || n.int_value == 0 || n.int_value > size)
      return error(n.span, "write_user() expects its length as an integer literal from 1 to " + std::to_string(size) +
                               ", the size of what it writes");
    size = static_cast<uint32_t>(n.int_value);
  }
  e.call_id = static_cast<int>(size);
}

}  // namespace rawprobe::lang
