// usermode (engine/lang/semantic_usermode.cpp says when it is what): for the probes that
// interrupt whatever ran, the interrupted code's privilege level is the low two bits of its
// cs selector in pt_regs, 3 for user code:
//   r1 = *(u64 *)(r6 +136); r1 &= 3; r0 = r1 == 3
#include "engine/codegen/gen.h"
#include "engine/probes/probe_types.h"

namespace rawprobe::codegen {

IntVal ProgramGen::usermode_int(const lang::Expr& e) {
  if (probes::probe_type(target_.points.front()->kind).context.special) return IntVal::constant(1);
  switch (target_.points.front()->kind) {
    case lang::ProbeKind::Profile:
    case lang::ProbeKind::Interval:
    case lang::ProbeKind::Software:
    case lang::ProbeKind::Hardware:
    case lang::ProbeKind::Watchpoint: break;
    default: return IntVal::constant(0);
  }
  std::optional<arch::RegSlot> cs = arch::find_slot(arch_table(e.span), "cs");
  if (!cs) {
    fail(e.span, "usermode needs the cs register, which the " + std::string(arch_table(e.span).name) +
                     " pt_regs table lacks");
    return IntVal::constant(0);
  }
  IntVal v = context_reg(*cs);
  Temp t = own(v);
  bpf::Reg r = acquire(t, bpf::R1);
  b_.alu(bpf::Op::And, r, 3);
  bpf::Label user = b_.new_label("usermode_user"), done = b_.new_label("usermode_end");
  b_.jump(bpf::Cond::Eq, r, 3, user);
  b_.mov(r, 0);
  b_.jump(done);
  b_.bind(user);
  b_.mov(r, 1);
  b_.bind(done);
  set(t, r);
  return IntVal::in_temp(t);
}

}  // namespace rawprobe::codegen
