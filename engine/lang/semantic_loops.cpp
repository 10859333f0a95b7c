// for loops (bpftrace 0.26): over a map's entries and over a range of integers.
//
//   for ($kv : @m)     $kv is (key, value); a map of several keys gives ((k1, k2), value)
//   for ($i : a..b)    $i runs from a up to b, b excluded; a and b are read once
//
// The loop variable exists only in the body, and may not shadow a variable of the probe.
// Code generation runs the body as a callback (engine/codegen/gen_loops.cpp), which sees one
// CPU's copy of a per-CPU value: aggregations' maps are refused.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::for_statement(Stmt& s) {
  Expr& var = *s.target;
  Type element = s.range_end ? range_type(s) : map_entry_type(*s.expr);
  if (vars_.count(var.name)) {
    error(var.span, "Loop declaration shadows existing variable: " + var.name);
    return;
  }
  var.type = element;
  vars_[var.name] = element;
  ++loop_depth_;
  block(s.body);
  --loop_depth_;
  vars_.erase(var.name);
}

// Both ends integers; $i is 64-bit, signed unless either end is unsigned.
Type Checker::range_type(Stmt& s) {
  Expr& start = *s.expr;
  Expr& end = *s.range_end;
  check(start, Use::Value);
  check(end, Use::Value);
  for (Expr* e : {&start, &end})
    if (e->type.kind != TypeKind::None && !e->type.is_integer())
      error(e->span, "a for loop's range needs integers, not " + type_name(e->type));
  if (!start.type.is_integer() || !end.type.is_integer()) return Type::none();
  return Type::integer(8, start.type.is_signed && end.type.is_signed);
}

// (key, value) of one entry of map `m`, the keys as a tuple when there are several.
Type Checker::map_entry_type(Expr& m) {
  MapInfo* info = whole_map(m);
  m.type = info->value;
  if (info->value.kind == TypeKind::None) {
    if (final_ && !value_failed_[size_t(m.map_id)]) error(m.span, "Undefined map: " + m.name);
    return Type::none();
  }
  if (is_aggregation(info->value.kind)) {
    error(m.span, "a for loop cannot iterate over " + m.name + ": its " + type_name(info->value) +
                      " values are kept per CPU; copy them into a map of plain values first (@copy[k] = ...)");
    return Type::none();
  }
  if (info->key.empty()) {
    error(m.span, "a for loop iterates over a map with keys; " + m.name + " has none");
    return Type::none();
  }
  Type key = info->key.size() == 1 ? info->key[0] : tuple_of(info->key);
  return tuple_of({key, info->value});
}

}  // namespace rawprobe::lang
