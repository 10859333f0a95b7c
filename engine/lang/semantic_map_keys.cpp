// delete(@m, k), has_key(@m, k) and find(@m, k, $v), bpftrace 0.22 on (docs/stdlib.md of
// v0.26.1), and the equivalence 0.22 made of @m[a, b] and @m[(a, b)].
//
// The key argument moves into the map expression, so the rest of the pass and code generation
// see @m[k], as delete(@m[k]) has always been written (bpftrace 0.17's form, still accepted).
#include <algorithm>

#include "engine/base/layout.h"
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

namespace {
// f(@m, k, ...) -> f(@m[k], ...); the call remembers it (call_id 1), since after the move the call
// has one argument less (delete and has_key: one, as the one-argument form has). False, reported, when the first argument is not a map
// without keys.
bool key_into_map(Expr& e, std::string& problem) {
  if (e.call_id == 1) return true;
  Expr& m = *e.operands[0];
  if (m.kind != ExprKind::Map || !m.operands.empty()) {
    problem = e.name + "() expects a map without keys as its first argument and the key as its second: " + e.name +
              (e.function == FunctionId::Find ? "(@m, k, $v)" : "(@m, k)");
    return false;
  }
  m.operands.push_back(std::move(e.operands[1]));
  e.operands.erase(e.operands.begin() + 1);
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

// find(@m, k, $v): docs/stdlib.md, "Return true if the key exists in this map and sets the
// passed scratch variable (result) to the value of that map key. Otherwise return false and
// don't mutate result ... Error if called with a map that has no keys". $v takes the map's
// value type, as `$v = @m[k]` would give it.
void Checker::call_find(Expr& e) {
  if (e.call_id != 1 && !arg_count(e)) return;
  std::string problem;
  if (!key_into_map(e, problem)) {
    // The variable is find()'s to set, not a read of one.
    for (ExprPtr& a : e.operands)
      if (a->kind != ExprKind::Variable || a != e.operands.back()) check(*a, Use::Value);
    return error(e.span, problem);
  }
  Expr& m = *e.operands[0];
  Expr& out = *e.operands[1];
  e.type = Type::boolean();
  bool first_use = info_.find_map(m.name) < 0;
  MapInfo* info = map_for(m, false);
  if (first_use) info->first_use = e.span;
  m.type = info->value;
  if (out.kind != ExprKind::Variable)
    return error(out.span, "find() sets a scratch variable: its third argument must be one ($v), not an expression");
  if (m.type.kind == TypeKind::None) return;  // reported by map_for, or known only in a later pass
  if (is_aggregation(m.type.kind))
    return error(m.span, "find() copies a map's value, and " + m.name + " holds " + type_name(m.type) +
                             "() values, which live one per CPU: read it with " + m.name + "[...] instead");
  Type value = widen_integer(m.type);
  auto it = vars_.find(out.name);
  if (it == vars_.end() || it->second.kind == TypeKind::None) {
    vars_[out.name] = value;
  } else {
    // The rules of `$v = value`: integers of any width, strings of any length, else one type.
    Type& have = it->second;
    bool fits = (have.is_integer() && value.is_integer()) || (have.is_string() && value.is_string()) || have == value;
    if (!fits)
      return error(out.span, "Type mismatch for " + out.name + ": find() would set it to a value of type '" +
                                 type_name(value) + "' when it already holds a value of type '" + type_name(have) + "'");
    if (have.is_string()) have.size = std::max(have.size, value.size);
    if (have.is_bool != value.is_bool) have.is_bool = false;
  }
  out.type = vars_[out.name];
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
