// len(@m), bpftrace 0.22 on: the number of elements in a map (docs/stdlib.md), counted when
// the program runs. len() of a stack (its depth) is not here yet, and says so.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::call_len(Expr& e) {
  if (!arg_count(e)) return;
  Expr& x = *e.operands[0];
  if (x.kind != ExprKind::Map) {
    check(x, Use::Value);
    if (x.type.kind == TypeKind::UStack || x.type.kind == TypeKind::KStack)
      return error(e.span, "len() of a stack (its depth) is not supported by rawprobe yet; len(@map) is");
    if (x.type.kind != TypeKind::None)
      return error(e.span, "len() counts a map's elements: give it a map, not a " + type_name(x.type) +
                               (x.type.is_string() ? " (strlen() is a string's length)" : ""));
    return;
  }
  if (!x.operands.empty()) return error(e.span, "len() counts a whole map: write len(" + x.name + "), without a key");
  bool first_use = info_.find_map(x.name) < 0;
  MapInfo* info = whole_map(x);
  if (first_use) info->first_use = e.span;
  x.type = info->value;
  e.type = Type::integer(8, true);
}

}  // namespace rawprobe::lang
