// Records (bpftrace 0.26's named tuples): `$r = (a=1, b="x"); $r.a`. A record is a tuple
// whose fields have names (Type::field_names), so `$r.b` is element 1 of the tuple, and code
// generation and output treat it as one; only printing shows the names. bpftrace's own tests
// (tests/runtime/record) read fields by name and nest records and tuples both ways.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

bool Checker::record_element(Expr& e) {
  const Type& base = e.operands[0]->type;
  if (base.kind != TypeKind::Tuple) return false;
  for (size_t i = 0; i < base.field_names.size(); ++i) {
    if (base.field_names[i] != e.name) continue;
    e.kind = ExprKind::TupleElement;
    e.int_value = i;
    e.type = base.fields[i];
    return true;
  }
  std::string names;
  for (const std::string& n : base.field_names) names += (names.empty() ? "" : ", ") + n;
  error(e.span, base.field_names.empty()
                    ? "a tuple's elements have no names: read them by position ($t.0, $t.1), not ." + e.name
                    : "the record " + type_name(base) + " has no field '" + e.name + "' (its fields: " + names + ")");
  return true;
}

// bpftrace 0.26.1 stores a record literal into a record of the same fields by name, whatever
// their order (tests/runtime/record, "record evaluation order": `(bar=1, foo=2)` assigned
// where `(foo=.., bar=..)` was stored prints `{ .foo = 2, .bar = 1 }`). The literal's fields
// are put in the stored order; block expressions in them have already been moved out in
// their written order (scopes.h), so what they print keeps that order.
void Checker::reorder_record(Expr& value, const Type& stored) {
  if (value.kind != ExprKind::Tuple || value.names.empty() || stored.kind != TypeKind::Tuple ||
      stored.field_names.size() != value.names.size() || stored.field_names == value.names)
    return;
  std::vector<size_t> order;
  for (const std::string& want : stored.field_names) {
    size_t i = 0;
    while (i < value.names.size() && value.names[i] != want) ++i;
    if (i == value.names.size()) return;  // other fields: the type mismatch is reported later
    order.push_back(i);
  }
  std::vector<ExprPtr> ops;
  for (size_t i : order) ops.push_back(std::move(value.operands[i]));
  value.operands = std::move(ops);
  value.names = stored.field_names;
  tuple(value);
}

}  // namespace rawprobe::lang
