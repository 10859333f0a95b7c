// Tuple elements: `$t.0`, `@m[k].1`, `$t.1.0`. The element has the type the tuple holds at
// that index (integers keep their own width inside a tuple: engine/base/layout.h).
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::element_of_tuple(Expr& e) {
  Expr& base = *e.operands[0];
  check(base, Use::Value);
  if (base.type.kind == TypeKind::None) return;  // already reported
  std::string index = std::to_string(e.int_value);
  if (base.type.kind != TypeKind::Tuple) {
    // bpftrace 0.17's words.
    error(e.span, "Can not access index " + index + " on expression of type '" + type_name(base.type) + "'");
    return;
  }
  size_t n = base.type.fields.size();
  if (e.int_value >= n) {
    error(e.span, "Invalid tuple index: " + index + ". Found " + std::to_string(n) + " elements in tuple.");
    return;
  }
  e.type = base.type.fields[e.int_value];
}

}  // namespace rawprobe::lang
