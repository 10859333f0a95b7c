// Conditions compiled straight to jumps: a predicate `/pid != 0/` is `if r0 == 0x0 goto exit`,
// not a 0/1 value tested afterwards. && and || short-circuit.
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Cond;
using bpf::Reg;
using lang::Expr;
using lang::ExprKind;
using lang::Op;

namespace {

enum class Rel { Eq, Ne, Lt, Gt, Le, Ge };

Rel rel_of(Op op) {
  switch (op) {
    case Op::Eq: return Rel::Eq;
    case Op::Ne: return Rel::Ne;
    case Op::Lt: return Rel::Lt;
    case Op::Gt: return Rel::Gt;
    case Op::Le: return Rel::Le;
    default: return Rel::Ge;
  }
}

Rel negate(Rel r) {
  switch (r) {
    case Rel::Eq: return Rel::Ne;
    case Rel::Ne: return Rel::Eq;
    case Rel::Lt: return Rel::Ge;
    case Rel::Ge: return Rel::Lt;
    case Rel::Gt: return Rel::Le;
    case Rel::Le: return Rel::Gt;
  }
  return r;
}

// a REL b  ==  b mirror(REL) a
Rel mirror(Rel r) {
  switch (r) {
    case Rel::Lt: return Rel::Gt;
    case Rel::Gt: return Rel::Lt;
    case Rel::Le: return Rel::Ge;
    case Rel::Ge: return Rel::Le;
    default: return r;
  }
}

Cond cond_of(Rel r, bool is_signed) {
  switch (r) {
    case Rel::Eq: return Cond::Eq;
    case Rel::Ne: return Cond::Ne;
    case Rel::Lt: return is_signed ? Cond::SLt : Cond::Lt;
    case Rel::Gt: return is_signed ? Cond::SGt : Cond::Gt;
    case Rel::Le: return is_signed ? Cond::SLe : Cond::Le;
    case Rel::Ge: return is_signed ? Cond::SGe : Cond::Ge;
  }
  return Cond::Eq;
}

}  // namespace

void ProgramGen::branch(const Expr& e, bool when, bpf::Label target) {
  if (e.kind == ExprKind::Unary && e.op == Op::LogNot) return branch(*e.operands[0], !when, target);
  if (e.kind == ExprKind::Integer) {
    if ((e.int_value != 0) == when) b_.jump(target);
    return;
  }
  if (e.kind == ExprKind::Binary && (e.op == Op::LogAnd || e.op == Op::LogOr)) {
    // (a && b) jumps when both hold; (a || b) when either does.
    bool both = e.op == Op::LogAnd;
    if (both != when) {
      branch(*e.operands[0], when, target);
      branch(*e.operands[1], when, target);
    } else {
      bpf::Label skip = b_.new_label(both ? "and" : "or");
      branch(*e.operands[0], !when, skip);
      branch(*e.operands[1], when, target);
      b_.bind(skip);
    }
    return;
  }
  if (e.kind == ExprKind::Binary && lang::op_is_comparison(e.op)) return compare_branch(e, when, target);
  IntVal v = gen_int(e);
  Reg r = use(v, bpf::R1);
  b_.jump(when ? Cond::Ne : Cond::Eq, r, 0, target);
  release(v);
}

void ProgramGen::compare_branch(const Expr& e, bool when, bpf::Label target) {
  const Expr& l = *e.operands[0];
  const Expr& r = *e.operands[1];
  if (l.type.is_string() && r.type.is_string()) {
    bool equal_when = (e.op == Op::Eq) == when;
    return string_compare_branch(l, r, equal_when, target);
  }
  if (l.type.kind == TypeKind::Array) return array_compare_branch(l, r, (e.op == Op::Eq) == when, target);
  bool is_signed = l.type.is_signed && r.type.is_signed;
  Rel rel = rel_of(e.op);
  if (!when) rel = negate(rel);
  IntVal a = gen_int(l);
  pin(a);
  IntVal b = gen_int(r);
  if (a.is_imm && !b.is_imm) {
    std::swap(a, b);
    rel = mirror(rel);
  }
  Reg ra = use(a, bpf::R1);
  if (b.is_imm && b.imm >= INT32_MIN && b.imm <= INT32_MAX) {
    b_.jump(cond_of(rel, is_signed), ra, static_cast<int32_t>(b.imm), target);
  } else {
    Reg rb = use(b, bpf::R2);
    b_.jump(cond_of(rel, is_signed), ra, rb, target);
  }
  release(a);
  release(b);
}

}  // namespace rawprobe::codegen
