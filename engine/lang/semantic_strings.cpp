// Strings as byte sequences, bpftrace 0.26 on: `s[i]` reads byte i of a string. Its own tools
// use it (opensnoop.bt: `$path[0] != "/"[0]`) and so does its standard library (strstr's
// `$needle[0] == 0`), where a string's bytes are int8, as C's char is.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

// `s[i]` on a string of N bytes (its capacity, NUL padding included): an int8. A literal
// index must lie below N, which the checker knows; any other index is checked when the
// program runs, and one at or past N reads as 0, the NUL a string is padded with.
void Checker::string_index(Expr& e) {
  Expr& base = *e.operands[0];
  Expr& idx = *e.operands[1];
  if (!idx.type.is_integer()) {
    error(idx.span, "A string index must be an integer (" + type_name(idx.type) + " given)");
    return;
  }
  if (idx.kind == ExprKind::Integer && idx.int_value >= base.type.size) {
    error(e.span, "the index " + std::to_string(idx.int_value) + " is out of bounds for " + type_name(base.type) +
                      " (its bytes are 0 to " + std::to_string(base.type.size - 1) + ")");
    return;
  }
  e.type = Type::integer(1, true);
  if (base.kind == ExprKind::String && idx.kind == ExprKind::Integer) {
    // A literal's byte is a literal: "/"[0] is 47, with no code to read it.
    std::string text = base.str;
    text.resize(base.type.size, '\0');
    int64_t byte = static_cast<int8_t>(text[idx.int_value]);
    e.kind = ExprKind::Integer;
    e.int_value = static_cast<uint64_t>(byte);
    e.operands.clear();
    check(e, Use::Value);
  }
}

}  // namespace rawprobe::lang
