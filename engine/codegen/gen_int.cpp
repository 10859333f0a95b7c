// Integer expressions, with bpftrace 0.17's semantics (its LLVM IR, checked by running it):
//   + - * & | ^ <<   64-bit, wrapping
//   / %              UNSIGNED whatever the operand types (bpftrace emits udiv/urem and warns
//                    about signed operands); x / 0 is 0 (the kernel's rule) and so is x % 0
//                    (the kernel would leave x: we check, like LLVM's folding in bpftrace)
//   >>               logical (lshr), also for signed values
//   < > <= >=        signed only when both operands are signed
//   -x ~x            of a 1-, 2- or 4-byte operand: computed, then cut to that width and
//                    zero-extended (~(uint8)0 == 255)
//   !x               0 or 1
//   (s8)x .. (u64)x  truncate, then sign- or zero-extend
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using lang::Expr;
using lang::ExprKind;
using lang::Op;

namespace {

bool fits_imm32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

uint64_t mask_to(uint64_t v, uint32_t bytes, bool is_signed) {
  if (bytes >= 8) return v;
  unsigned bits = bytes * 8;
  v &= (uint64_t{1} << bits) - 1;
  if (is_signed && (v >> (bits - 1))) v |= ~((uint64_t{1} << bits) - 1);
  return v;
}

std::optional<uint64_t> fold(Op op, uint64_t a, uint64_t b) {
  switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return b ? a / b : 0;
    case Op::Mod: return b ? a % b : 0;
    case Op::BitAnd: return a & b;
    case Op::BitOr: return a | b;
    case Op::BitXor: return a ^ b;
    case Op::Shl: return b < 64 ? a << b : 0;
    case Op::Shr: return b < 64 ? a >> b : 0;
    default: return std::nullopt;
  }
}

bpf::Op alu_of(Op op) {
  switch (op) {
    case Op::Add: return bpf::Op::Add;
    case Op::Sub: return bpf::Op::Sub;
    case Op::Mul: return bpf::Op::Mul;
    case Op::Div: return bpf::Op::Div;
    case Op::Mod: return bpf::Op::Mod;
    case Op::BitAnd: return bpf::Op::And;
    case Op::BitOr: return bpf::Op::Or;
    case Op::BitXor: return bpf::Op::Xor;
    case Op::Shl: return bpf::Op::Lsh;
    default: return bpf::Op::Rsh;
  }
}

}  // namespace

// --- registers and temporaries -----------------------------------------------------------------

void ProgramGen::load_imm(Reg r, int64_t v) {
  if (fits_imm32(v)) b_.mov(r, static_cast<int32_t>(v));
  else if (v >= 0 && v <= UINT32_MAX) b_.mov32(r, static_cast<int32_t>(static_cast<uint32_t>(v)));
  else b_.ld_imm64(r, static_cast<uint64_t>(v));
}

Reg ProgramGen::use(const IntVal& v, Reg scratch) {
  if (v.in_r0) return bpf::R0;
  if (v.is_imm) {
    load_imm(scratch, v.imm);
    return scratch;
  }
  if (v.is_slot) {
    b_.load(bpf::Size::DW, scratch, bpf::R10, static_cast<int16_t>(v.slot));
    return scratch;
  }
  return acquire(v.temp, scratch);
}

Reg ProgramGen::acquire(Temp t, Reg scratch) {
  if (regs_.in_reg(t)) return regs_.reg(t);
  b_.load(bpf::Size::DW, scratch, bpf::R10, static_cast<int16_t>(regs_.slot(t)));
  return scratch;
}

Reg ProgramGen::target_reg(Temp t, Reg scratch) const { return regs_.in_reg(t) ? regs_.reg(t) : scratch; }

void ProgramGen::set(Temp t, Reg r) {
  if (regs_.in_reg(t)) {
    if (regs_.reg(t) != r) b_.mov(regs_.reg(t), r);
  } else {
    b_.store(bpf::Size::DW, bpf::R10, static_cast<int16_t>(regs_.slot(t)), r);
  }
}

IntVal ProgramGen::to_temp(Reg r) {
  Temp t = regs_.take();
  set(t, r);
  return IntVal::in_temp(t);
}

Temp ProgramGen::own(IntVal& v) {
  if (!v.is_imm && !v.is_slot && !v.in_r0) return v.temp;
  Temp t = regs_.take();
  Reg r = use(v, target_reg(t, bpf::R1));
  set(t, r);
  v = IntVal::in_temp(t);
  return t;
}

void ProgramGen::pin(IntVal& v) {
  if (v.in_r0) own(v);
}

void ProgramGen::release(IntVal& v) {
  if (!v.is_imm && !v.is_slot && !v.in_r0) regs_.release(v.temp);
  v = IntVal::constant(0);
}

void ProgramGen::extend(Reg r, uint32_t bytes, bool is_signed) {
  if (bytes >= 8) return;
  if (is_signed) {
    int shift = 64 - static_cast<int>(bytes) * 8;
    b_.alu(bpf::Op::Lsh, r, shift);
    b_.alu(bpf::Op::Arsh, r, shift);
  } else if (bytes == 4) {
    b_.mov32(r, r);
  } else {
    b_.alu(bpf::Op::And, r, bytes == 1 ? 0xff : 0xffff);
  }
}

// --- expressions ----------------------------------------------------------------------------

IntVal ProgramGen::gen_int(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Integer: return IntVal::constant(static_cast<int64_t>(e.int_value));
    case ExprKind::Builtin: return builtin_int(e);
    case ExprKind::Variable: return variable_int(e);
    case ExprKind::Map: return map_read_int(e, e.span);
    case ExprKind::Unary: return unary(e);
    case ExprKind::Binary: return binary(e);
    case ExprKind::Ternary: return ternary_int(e);
    case ExprKind::IncDec: return incdec(e);
    case ExprKind::Cast: return cast(e);
    case ExprKind::Field: return reads_memory(e) ? memory_int(e) : field_int(e);
    case ExprKind::Deref: return memory_int(e);
    case ExprKind::Index: return e.operands[0]->type.is_string() ? string_byte_int(e) : memory_int(e);
    case ExprKind::Sizeof:
    case ExprKind::Offsetof: return IntVal::constant(static_cast<int64_t>(e.int_value));
    case ExprKind::Call: return call_int(e);
    case ExprKind::TupleElement: return tuple_element_int(e);
    default:
      fail(e.span, "this expression does not give an integer here");
      return IntVal::constant(0);
  }
}

IntVal ProgramGen::variable_int(const Expr& e) { return IntVal::stack_slot(variable_slot(e)); }

IntVal ProgramGen::bool_value(const Expr& e) {
  return jumped_value([&](bpf::Label taken) { branch(e, true, taken); });
}

IntVal ProgramGen::jumped_value(const std::function<void(bpf::Label)>& emit_jump) {
  Temp t = regs_.take();
  bpf::Label done = b_.new_label("bool");
  if (regs_.in_reg(t)) {
    Reg r = regs_.reg(t);
    b_.mov(r, 1);
    emit_jump(done);
    b_.mov(r, 0);
  } else {
    int16_t slot = static_cast<int16_t>(regs_.slot(t));
    b_.store_imm(bpf::Size::DW, bpf::R10, slot, 1);
    emit_jump(done);
    b_.store_imm(bpf::Size::DW, bpf::R10, slot, 0);
  }
  b_.bind(done);
  return IntVal::in_temp(t);
}

IntVal ProgramGen::binary(const Expr& e) {
  if (lang::op_is_comparison(e.op) || e.op == Op::LogAnd || e.op == Op::LogOr) return bool_value(e);
  IntVal a = gen_int(*e.operands[0]);
  pin(a);
  IntVal b = gen_int(*e.operands[1]);
  if (e.scale > 1) {  // pointer +/- n: n whole elements
    pin(b);
    IntVal scale = IntVal::constant(e.scale);
    if (e.operands[0]->type.is_pointer()) b = apply(Op::Mul, b, scale, false);
    else a = apply(Op::Mul, a, scale, false);
    pin(a);
  }
  return apply(e.op, a, b, e.type.is_signed);
}

IntVal ProgramGen::apply(Op op, IntVal& a, IntVal& b, bool is_signed) {
  (void)is_signed;  // bpftrace 0.17 divides, takes remainders and shifts unsigned
  if (a.is_imm && b.is_imm) {
    if (auto v = fold(op, static_cast<uint64_t>(a.imm), static_cast<uint64_t>(b.imm)))
      return IntVal::constant(static_cast<int64_t>(*v));
  }
  Temp t = own(a);
  Reg rd = acquire(t, bpf::R1);
  bpf::Op alu = alu_of(op);
  bool shift = op == Op::Shl || op == Op::Shr;
  bool division = op == Op::Div || op == Op::Mod;
  if (b.is_imm && division && b.imm == 0) {
    b_.mov(rd, 0);  // the verifier rejects an immediate zero divisor
  } else if (b.is_imm && fits_imm32(b.imm) && (!shift || (b.imm >= 0 && b.imm < 64))) {
    b_.alu(alu, rd, static_cast<int32_t>(b.imm));
  } else {
    Reg rb = use(b, bpf::R2);
    if (op == Op::Mod) {
      bpf::Label zero = b_.new_label("mod0"), done = b_.new_label("mod");
      b_.jump(bpf::Cond::Eq, rb, 0, zero);
      b_.alu(alu, rd, rb);
      b_.jump(done);
      b_.bind(zero);
      b_.mov(rd, 0);
      b_.bind(done);
    } else {
      b_.alu(alu, rd, rb);
    }
  }
  release(b);
  set(t, rd);
  return IntVal::in_temp(t);
}

IntVal ProgramGen::unary(const Expr& e) {
  if (e.op == Op::LogNot) return bool_value(e);
  const Expr& x = *e.operands[0];
  IntVal v = gen_int(x);
  uint32_t width = x.type.size;
  if (v.is_imm) {
    uint64_t r = e.op == Op::Neg ? -static_cast<uint64_t>(v.imm) : ~static_cast<uint64_t>(v.imm);
    return IntVal::constant(static_cast<int64_t>(mask_to(r, width, false)));
  }
  if (v.in_r0) {
    if (e.op == Op::Neg) b_.neg(bpf::R0);
    else b_.alu(bpf::Op::Xor, bpf::R0, -1);
    extend(bpf::R0, width, false);
    return v;
  }
  Temp t = own(v);
  Reg rd = acquire(t, bpf::R1);
  if (e.op == Op::Neg) b_.neg(rd);
  else b_.alu(bpf::Op::Xor, rd, -1);
  extend(rd, width, false);
  set(t, rd);
  return v;
}

IntVal ProgramGen::cast(const Expr& e) {
  if (e.operands[0]->type.kind == TypeKind::Array) return array_bytes_int(*e.operands[0]);  // gen_place.cpp
  IntVal v = gen_int(*e.operands[0]);
  if (e.type.is_pointer()) return v;  // (struct foo *)x: the same 64 bits
  uint32_t bytes = e.cast_type.size;
  if (bytes >= 8) return v;
  if (v.is_imm) return IntVal::constant(static_cast<int64_t>(mask_to(static_cast<uint64_t>(v.imm), bytes, e.cast_type.is_signed)));
  if (v.in_r0) {
    extend(bpf::R0, bytes, e.cast_type.is_signed);
    return v;
  }
  Temp t = own(v);
  Reg rd = acquire(t, bpf::R1);
  extend(rd, bytes, e.cast_type.is_signed);
  set(t, rd);
  return v;
}

IntVal ProgramGen::ternary_int(const Expr& e) {
  Temp t = regs_.take();
  bpf::Label other = b_.new_label("else"), done = b_.new_label("endternary");
  branch(*e.operands[0], false, other);
  for (int side = 1; side <= 2; ++side) {
    if (side == 2) {
      b_.jump(done);
      b_.bind(other);
    }
    IntVal v = gen_int(*e.operands[side]);
    set(t, use(v, bpf::R1));
    release(v);
  }
  b_.bind(done);
  return IntVal::in_temp(t);
}

IntVal ProgramGen::incdec(const Expr& e) {
  const Expr& target = *e.operands[0];
  int32_t step = e.op == Op::Inc ? 1 : -1;
  IntVal old = target.kind == ExprKind::Variable ? variable_int(target) : map_read_int(target, e.span);
  Temp t = own(old);
  Reg r = acquire(t, bpf::R1);
  // r2 = the new value; the result is the old one (postfix) or the new one (prefix).
  b_.mov(bpf::R2, r);
  b_.alu(bpf::Op::Add, bpf::R2, step);
  if (!e.postfix) b_.alu(bpf::Op::Add, r, step);
  set(t, r);
  if (target.kind == ExprKind::Variable) {
    b_.store(bpf::Size::DW, bpf::R10, static_cast<int16_t>(variable_slot(target)), bpf::R2);
  } else {
    IntVal updated = to_temp(bpf::R2);
    Place key = map_key(target);
    map_write_int(target, key, updated, e.span);
    release(updated);
  }
  return old;
}

}  // namespace rawprobe::codegen
