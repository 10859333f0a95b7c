// len(@m), bpftrace 0.22 on: the number of elements in a map (docs/stdlib.md), counted when
// the program runs; len(ustack), len(kstack): the stack's depth in frames, where it is taken
// (a stack kept in a map or variable is an id there, without its frames).
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::call_len(Expr& e) {
  if (!arg_count(e)) return;
  Expr& x = *e.operands[0];
  if (x.kind != ExprKind::Map) {
    check(x, Use::Value);
    if (x.type.kind == TypeKind::UStack || x.type.kind == TypeKind::KStack) {
      if (x.kind != ExprKind::Call && x.kind != ExprKind::Builtin)
        return error(e.span, "len() counts a stack's frames where it is taken: write len(" +
                                 std::string(x.type.kind == TypeKind::UStack ? "ustack" : "kstack") +
                                 "), not of a stack kept in a map or variable");
      e.type = Type::integer(8, true);
      return;
    }
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
