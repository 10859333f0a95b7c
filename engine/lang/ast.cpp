#include "engine/lang/ast.h"

namespace rawprobe::lang {

const char* op_spelling(Op op) {
  switch (op) {
    case Op::None: return "";
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Mod: return "%";
    case Op::BitAnd: return "&";
    case Op::BitOr: return "|";
    case Op::BitXor: return "^";
    case Op::Shl: return "<<";
    case Op::Shr: return ">>";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Lt: return "<";
    case Op::Gt: return ">";
    case Op::Le: return "<=";
    case Op::Ge: return ">=";
    case Op::LogAnd: return "&&";
    case Op::LogOr: return "||";
    case Op::Neg: return "-";
    case Op::BitNot: return "~";
    case Op::LogNot: return "!";
    case Op::Inc: return "++";
    case Op::Dec: return "--";
  }
  return "?";
}

bool op_is_comparison(Op op) {
  return op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Gt || op == Op::Le || op == Op::Ge;
}

ExprPtr make_expr(ExprKind kind, Span span) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->span = span;
  return e;
}

}  // namespace rawprobe::lang
