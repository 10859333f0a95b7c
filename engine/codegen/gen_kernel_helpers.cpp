// One helper call each (the semantic pass, semantic_kernel_helpers.cpp, has checked where):
//
//   socket_cookie(sk)          r0 = bpf_get_socket_cookie(sk)
//   percpu_kaddr("v")          r1 = ld_imm64 BTF_ID(v); r0 = bpf_this_cpu_ptr(r1)
//   percpu_kaddr("v", cpu)     r1 = ld_imm64 BTF_ID(v); r0 = bpf_per_cpu_ptr(r1, cpu)  (NULL
//                              when cpu is not a possible CPU)
//   write_user(dst, src, n)    src on the stack; r0 = bpf_probe_write_user(dst, &src, n)
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using lang::Expr;

IntVal ProgramGen::socket_cookie_int(const Expr& e) {
  IntVal sk = gen_int(*e.operands[0]);
  Reg r = use(sk, bpf::R1);
  if (r != bpf::R1) b_.mov(bpf::R1, r);
  release(sk);
  b_.call(bpf::Helper::get_socket_cookie);
  return IntVal::r0();
}

IntVal ProgramGen::percpu_kaddr_int(const Expr& e) {
  bool one_cpu = e.operands.size() == 2;
  IntVal cpu;
  if (one_cpu) {
    cpu = gen_int(*e.operands[1]);
    Reg r = use(cpu, bpf::R2);
    if (r != bpf::R2) b_.mov(bpf::R2, r);
    release(cpu);
  }
  // The variable's VAR id in vmlinux's BTF (imm's high half, the BTF object's fd, is 0 for
  // vmlinux): the verifier turns the load into the variable's per-CPU address.
  b_.emit(bpf::Instruction{bpf::op::LD_IMM64, bpf::R1, bpf::op::PSEUDO_BTF_ID, 0, static_cast<int64_t>(e.int_value)});
  b_.call(one_cpu ? bpf::Helper::per_cpu_ptr : bpf::Helper::this_cpu_ptr);
  return IntVal::r0();
}

IntVal ProgramGen::write_user_int(const Expr& e) {
  // The kernel withdraws the helper from tracing programs under lockdown
  // (kernel/trace/bpf_trace.c: security_locked_down(LOCKDOWN_BPF_WRITE_USER)).
  if (!helper_available(bpf::Helper::probe_write_user, e.span,
                        "write_user() needs bpf_probe_write_user, which this kernel withholds from tracing "
                        "programs: it is under lockdown (integrity or confidentiality, see "
                        "/sys/kernel/security/lockdown), or older than Linux 4.8"))
    return IntVal::constant(0);
  const Expr& src = *e.operands[1];
  uint32_t bytes = static_cast<uint32_t>(e.call_id);  // checked against src's size
  IntVal dst = gen_int(*e.operands[0]);
  pin(dst);
  Place from;
  if (src.type.is_integer()) {
    IntVal v = gen_int(src);
    from = Place{frame_.alloc(8), {}};
    store_int(v, 8, from);  // little-endian: its low `bytes` bytes come first
    release(v);
  } else {
    from = materialize(src);
  }
  Reg r = use(dst, bpf::R1);
  if (r != bpf::R1) b_.mov(bpf::R1, r);
  release(dst);
  place_address(bpf::R2, from);
  b_.mov(bpf::R3, static_cast<int32_t>(bytes));
  b_.call(bpf::Helper::probe_write_user);
  return IntVal::r0();
}

}  // namespace rawprobe::codegen
