// Tuple elements: the tuple is on the stack (a variable's own slot, or a fresh slot the value
// is written to: a map value, a tuple literal, an element of a tuple), and the element is read
// at its offset in the tuple's layout (engine/base/layout.h):
//   $t.1 of ($t = (1, (int8)-2)):   r1 = *(s8 *)(r10 - 16 + 8), sign-extended
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using lang::Expr;
using lang::ExprKind;

// The tuple's layout is the variable's as the program stores it (its widest strings), or the
// value's own for everything written afresh.
Place ProgramGen::tuple_element_place(const Expr& e, Type& element) {
  const Expr& base = *e.operands[0];
  const Type& tuple = base.kind == ExprKind::Variable ? variable_types_.at(base.name) : base.type;
  Place p = materialize(base);
  StructLayout l = layout_of(tuple.fields);
  element = tuple.fields[e.int_value];
  return p.at(static_cast<int32_t>(l.offsets[e.int_value]));
}

IntVal ProgramGen::tuple_element_int(const Expr& e) {
  Type element;
  Place p = tuple_element_place(e, element);
  Temp t = regs_.take();
  Reg r = target_reg(t, bpf::R1);
  uint32_t size = element.size ? element.size : 8;
  b_.load(size_for(size), r, bpf::R10, static_cast<int16_t>(p.off));
  if (element.is_integer()) extend(r, size, element.is_signed);
  set(t, r);
  return IntVal::in_temp(t);
}

void ProgramGen::tuple_element_into(const Expr& e, uint32_t slot, Place dst) {
  Type element;
  Place p = tuple_element_place(e, element);
  uint32_t have = std::min(slot, type_size(element));
  copy(dst, bpf::R10, p.off, have);
  if (slot > have) zero(dst.at(static_cast<int32_t>(have)), slot - have);
}

}  // namespace rawprobe::codegen
