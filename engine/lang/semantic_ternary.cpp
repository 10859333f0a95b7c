// A ternary used as a statement: its branches may be actions without a value
// (`$x > 2 ? printf("big\n") : exit();`), as in bpftrace 0.17; a value in one branch and none
// in the other is refused with bpftrace's words.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {
namespace {

bool is_action(const Expr& e) {
  return e.kind == ExprKind::Call && e.function != FunctionId::None &&
         function_info(e.function).role == FunctionRole::Action;
}

}  // namespace

void Checker::ternary_statement(Expr& e) {
  condition(*e.operands[0], "condition");
  Expr& a = *e.operands[1];
  Expr& b = *e.operands[2];
  check(a, Use::Statement);
  check(b, Use::Statement);
  bool action_a = is_action(a), action_b = is_action(b);
  if (action_a && action_b) return;  // no value: e.type stays None
  if (action_a || action_b) {
    const Expr& value = action_a ? b : a;
    if (value.type.kind == TypeKind::None) return;  // already reported
    std::string va = action_a ? "none" : argument_type_name(a.type);
    std::string vb = action_b ? "none" : argument_type_name(b.type);
    error(e.span, "Ternary operator must return the same type: have '" + va + "' and '" + vb + "'");
    return;
  }
  ternary_type(e);
}

}  // namespace rawprobe::lang
