// assert(cond, msg) and static_assert(cond, msg), bpftrace 0.26.1 (docs/stdlib.md).
//   assert: when cond is false where the program runs, print "Assertion failed. Msg: " and the
//     message (src/stdlib/base.bt's text, with no newline) and end the run with status 1,
//     as exit(1) does. The call keeps that printf and exit as operands 2 and 3 for codegen.
//   static_assert: cond must be known when the script is checked (a literal, sizeof, is_str,
//     ...); false stops the script with the message, as a compile error.
//   assert_str: x must be string-like, checked when the script is: a string, or an array of
//     or pointer to a 1-byte integer (src/stdlib/strings.bt's rule and words).
#include <optional>

#include "engine/base/type_names.h"
#include "engine/ctypes/ctype.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

namespace {

bool has_truth(const Type& t) { return t.is_scalar(); }

}  // namespace

// static_assert(sizeof(x) == 8, ...) needs no code.
std::optional<int64_t> constant_of(const Expr& e) {
  if (e.kind == ExprKind::Integer || e.kind == ExprKind::Sizeof || e.kind == ExprKind::Offsetof)
    return static_cast<int64_t>(e.int_value);
  if (e.kind == ExprKind::Unary) {
    std::optional<int64_t> x = constant_of(*e.operands[0]);
    if (!x) return std::nullopt;
    switch (e.op) {
      case Op::Neg: return static_cast<int64_t>(0 - static_cast<uint64_t>(*x));
      case Op::BitNot: return ~*x;
      case Op::LogNot: return *x == 0;
      default: return std::nullopt;
    }
  }
  if (e.kind != ExprKind::Binary || !e.operands[0]->type.is_integer() || !e.operands[1]->type.is_integer())
    return std::nullopt;
  std::optional<int64_t> a = constant_of(*e.operands[0]), b = constant_of(*e.operands[1]);
  if (!a || !b) return std::nullopt;
  bool is_signed = e.operands[0]->type.is_signed && e.operands[1]->type.is_signed;
  uint64_t ua = static_cast<uint64_t>(*a), ub = static_cast<uint64_t>(*b);
  auto less = [&](int64_t x, int64_t y) {
    return is_signed ? x < y : static_cast<uint64_t>(x) < static_cast<uint64_t>(y);
  };
  switch (e.op) {
    case Op::Add: return static_cast<int64_t>(ua + ub);
    case Op::Sub: return static_cast<int64_t>(ua - ub);
    case Op::Mul: return static_cast<int64_t>(ua * ub);
    case Op::Div: return ub ? std::optional<int64_t>(static_cast<int64_t>(ua / ub)) : std::nullopt;
    case Op::Mod: return ub ? std::optional<int64_t>(static_cast<int64_t>(ua % ub)) : std::nullopt;
    case Op::BitAnd: return *a & *b;
    case Op::BitOr: return *a | *b;
    case Op::BitXor: return *a ^ *b;
    case Op::Eq: return *a == *b;
    case Op::Ne: return *a != *b;
    case Op::Lt: return less(*a, *b);
    case Op::Gt: return less(*b, *a);
    case Op::Le: return !less(*b, *a);
    case Op::Ge: return !less(*a, *b);
    case Op::LogAnd: return *a && *b;
    case Op::LogOr: return *a || *b;
    default: return std::nullopt;
  }
}

void Checker::call_assert(Expr& e) {
  if (e.operands.size() == 4) {  // the second pass: the printf and exit are already there
    check(*e.operands[0], Use::Value);
    check(*e.operands[2], Use::Statement);
    check(*e.operands[3], Use::Statement);
    return;
  }
  if (!arg_count(e)) return;
  Expr& cond = *e.operands[0];
  Expr& msg = *e.operands[1];
  check(cond, Use::Value);
  check(msg, Use::Value);
  if (cond.type.kind == TypeKind::None || msg.type.kind == TypeKind::None) return;
  if (!has_truth(cond.type)) return error(cond.span, "assert()'s condition must be a bool or an integer (" + type_name(cond.type) + " given)");
  if (!msg.type.is_string()) return error(msg.span, "assert()'s message must be a string (" + type_name(msg.type) + " given)");
  ExprPtr say = make_expr(ExprKind::Call, e.span);
  say->name = "printf";
  ExprPtr fmt = make_expr(ExprKind::String, e.span);
  fmt->str = "Assertion failed. Msg: %s";
  say->operands.push_back(std::move(fmt));
  say->operands.push_back(std::move(e.operands[1]));
  e.operands[1] = make_expr(ExprKind::Integer, e.span);  // placeholder: the message moved into the printf
  ExprPtr stop = make_expr(ExprKind::Call, e.span);
  stop->name = "exit";
  ExprPtr status = make_expr(ExprKind::Integer, e.span);
  status->int_value = 1;
  stop->operands.push_back(std::move(status));
  e.operands.push_back(std::move(say));
  e.operands.push_back(std::move(stop));
  check(*e.operands[2], Use::Statement);
  check(*e.operands[3], Use::Statement);
}

void Checker::call_static_assert(Expr& e) {
  if (!arg_count(e)) return;
  Expr& cond = *e.operands[0];
  Expr& msg = *e.operands[1];
  check(cond, Use::Value);
  if (cond.type.kind == TypeKind::None) return;
  if (!msg.is_literal_string()) return error(msg.span, "static_assert()'s message must be a string literal");
  std::optional<int64_t> value = constant_of(cond);
  if (!value)
    return error(cond.span, "static_assert()'s condition must be known when the script is checked (literals, "
                            "sizeof, offsetof, strcap(), is_str(), ...); use assert() for one known only when it runs");
  if (*value == 0) error(e.span, "static assertion failed: " + msg.str);
}

void Checker::call_assert_str(Expr& e) {
  if (!arg_count(e)) return;
  Expr& x = *e.operands[0];
  check(x, Use::Value);
  const Type& t = x.type;
  if (t.kind == TypeKind::None || t.is_string()) return;
  if (t.kind != TypeKind::Array && !t.is_pointer())
    return error(x.span, "string-like values must be either strings, arrays or pointers (" + type_name(t) + " given)");
  ctypes::CTypeRef elem = ctypes::strip_typedefs(ctypes::strip_typedefs(t.ctype)->target);
  bool char_like = elem && elem->kind == ctypes::CKind::Int && ctypes::size_of(elem) == 1;
  if (!char_like)
    error(x.span, std::string(t.is_pointer() ? "string-like pointers must point to" : "string-like arrays must contain") +
                      " a char-like type (" + type_name(t) + " given)");
}

}  // namespace rawprobe::lang
