// delete(@m, k) and has_key(@m, k), bpftrace 0.22 on (docs/stdlib.md of v0.26.1), and the
// equivalence 0.22 made of @m[a, b] and @m[(a, b)].
//
// The key argument moves into the map expression, so the rest of the pass and code generation
// see @m[k], as delete(@m[k]) has always been written (bpftrace 0.17's form, still accepted).
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

namespace {
// f(@m, k) -> f(@m[k]); the call remembers it (call_id 1), since after the move the call has one
// argument, as the one-argument form has. False, reported, when the first argument is not a map
// without keys.
bool key_into_map(Expr& e, std::string& problem) {
  if (e.call_id == 1) return true;
  Expr& m = *e.operands[0];
  if (m.kind != ExprKind::Map || !m.operands.empty()) {
    problem = e.name + "() expects a map without keys as its first argument and the key as its second: " + e.name +
              "(@m, k)";
    return false;
  }
  m.operands.push_back(std::move(e.operands[1]));
  e.operands.pop_back();
  e.call_id = 1;
  return true;
}
}  // namespace

void Checker::call_delete(Expr& e) {
  if (!arg_count(e)) return;
  if (e.operands.size() == 2) {
    std::string problem;
    if (!key_into_map(e, problem)) {
      for (ExprPtr& a : e.operands) check(*a, Use::Value);
      return error(e.span, problem);
    }
  }
  call_map_function(e);
  e.type = Type::boolean();  // true when an element was removed (docs/stdlib.md: bool delete)
}

void Checker::call_has_key(Expr& e) {
  if (e.call_id != 1 && !arg_count(e)) return;
  std::string problem;
  if (!key_into_map(e, problem)) {
    for (ExprPtr& a : e.operands) check(*a, Use::Value);
    return error(e.span, problem);
  }
  Expr& m = *e.operands[0];
  bool first_use = info_.find_map(m.name) < 0;
  MapInfo* info = map_for(m, false);
  if (first_use) info->first_use = e.span;
  m.type = info->value;
  e.type = Type::boolean();  // docs/stdlib.md: `boolean has_key(map m, mapkey k)`
}

// @m[a, b] where @m's key is the tuple (a, b), or @m[t] for a tuple t where @m has the keys
// t.0, t.1: bpftrace 0.22 on reads both as the same key, so the access is rewritten to the
// map's shape. False when no rewrite fits.
bool Checker::reshape_key(Expr& m, const std::vector<Type>& want) {
  std::vector<ExprPtr>& keys = m.operands;
  if (want.size() == 1 && want[0].kind == TypeKind::Tuple && keys.size() > 1 && keys.size() == want[0].fields.size()) {
    ExprPtr t = make_expr(ExprKind::Tuple, keys.front()->span);
    t->operands = std::move(keys);
    keys.clear();
    keys.push_back(std::move(t));
    check(*keys[0], Use::Value);
    return true;
  }
  if (keys.size() != 1 || want.size() < 2) return false;
  Expr& k = *keys[0];
  if (k.type.kind != TypeKind::Tuple || k.type.fields.size() != want.size()) return false;
  if (k.kind == ExprKind::Tuple) {  // @m[(a, b)]
    std::vector<ExprPtr> parts = std::move(k.operands);
    keys = std::move(parts);
  } else if (k.kind == ExprKind::Variable) {  // @m[$t]: $t.0, $t.1, ...
    std::vector<ExprPtr> parts;
    for (size_t i = 0; i < want.size(); ++i) {
      ExprPtr element = make_expr(ExprKind::TupleElement, k.span);
      ExprPtr var = make_expr(ExprKind::Variable, k.span);
      var->name = k.name;
      element->operands.push_back(std::move(var));
      element->int_value = i;
      parts.push_back(std::move(element));
    }
    keys = std::move(parts);
  } else {
    return false;
  }
  for (ExprPtr& part : keys) check(*part, Use::Value);
  return true;
}

}  // namespace rawprobe::lang
