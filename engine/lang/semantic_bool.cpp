// `(bool)x`, bpftrace 0.22 on: whether x is non-zero, or for a string whether it is not
// empty, as bpftrace's own tests (tests/runtime/bool) show: (bool)1 and (bool)"hello" are
// true, (bool)0, (bool)"" and (bool) of a null pointer false. The cast becomes that
// comparison, which is a bool.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::cast_to_bool(Expr& e) {
  const Type& from = e.operands[0]->type;
  if (!from.is_scalar() && !from.is_string()) {
    error(e.span, "Cannot cast from '" + type_name(from) +
                      "' to 'bool': only an integer, a pointer or a string has a truth value");
    return;
  }
  ExprPtr x = std::move(e.operands[0]);
  auto literal = [&](uint64_t v) {
    ExprPtr n = make_expr(ExprKind::Integer, e.span);
    n->int_value = v;
    return n;
  };
  if (x->type.is_string()) {  // its first byte: NUL when empty
    ExprPtr first = make_expr(ExprKind::Index, x->span);
    first->operands.push_back(std::move(x));
    first->operands.push_back(literal(0));
    x = std::move(first);
  }
  ExprPtr test = make_expr(ExprKind::Binary, e.span);
  test->op = Op::Ne;
  test->operands.push_back(std::move(x));
  test->operands.push_back(literal(0));
  Expr rewritten = std::move(*test);
  e = std::move(rewritten);
  check(e, Use::Value);
}

}  // namespace rawprobe::lang
