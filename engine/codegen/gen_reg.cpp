// reg("name") (engine/lang/semantic_reg.cpp says where it is allowed): a load of that pt_regs
// field from the context, r1 = *(u64 *)(r6 + offset).
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

IntVal ProgramGen::reg_int(const lang::Expr& e) {
  const arch::Table& t = arch_table(e.span);
  std::optional<arch::RegSlot> slot = arch::find_register(t, e.operands[0]->str);
  if (!slot) {
    fail(e.span, "'" + e.operands[0]->str + "' is not a register of the " + std::string(t.name) + " pt_regs table");
    return IntVal::constant(0);
  }
  return context_reg(*slot);
}

}  // namespace rawprobe::codegen
