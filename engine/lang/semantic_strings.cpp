// Strings as byte sequences, bpftrace 0.26 on: `s[i]` reads byte i of a string. Its own tools
// use it (opensnoop.bt: `$path[0] != "/"[0]`) and so does its standard library (strstr's
// `$needle[0] == 0`), where a string's bytes are int8, as C's char is.
#include "engine/base/type_names.h"
#include "engine/ctypes/ctype.h"
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

namespace rawprobe::lang {

// strstr(haystack, needle): int64, the index of needle's first occurrence, -1 where there is
// none (docs/stdlib.md). An empty needle is found at 0, as src/stdlib/strings.bt special-cases.
void Checker::call_strstr(Expr& e) {
  call_generic(e);
  if (e.type.kind != TypeKind::None) e.type = Type::integer(8, true);
}

// strcontains(haystack, needle): a bool in 0.26.1's docs/stdlib.md (0.17 printed 1 or 0).
void Checker::call_strcontains(Expr& e) {
  call_generic(e);
  if (e.type.kind != TypeKind::None) e.type = Type::boolean();
}

// strcap(s): a string's capacity, its NUL included (strings.bt: sizeof(exp)), known when the
// script is checked; for an int8 array, its length. A pointer has no capacity but its strlen,
// which needs the string read: str() it first.
void Checker::call_strcap(Expr& e) {
  if (!arg_count(e)) return;
  Expr& x = *e.operands[0];
  check(x, Use::Value);
  if (x.type.kind == TypeKind::None) return;
  uint64_t cap = 0;
  if (x.type.is_string()) {
    cap = x.type.size;
  } else if (x.type.kind == TypeKind::Array && x.type.size) {
    ctypes::CTypeRef elem = ctypes::strip_typedefs(x.type.ctype)->target;
    cap = x.type.size / std::max<uint64_t>(1, ctypes::size_of(elem));
  } else {
    return error(e.span, "strcap() takes a string or a char array (" + type_name(x.type) + " given)" +
                             (x.type.is_pointer() ? ": read the string first, strcap(str(p))" : ""));
  }
  e.kind = ExprKind::Integer;
  e.int_value = cap;
  e.operands.clear();
  check(e, Use::Value);
}

// memcmp(left, right, count): 0 when the first count bytes are equal, else the difference of
// the first unequal pair, as unsigned bytes (negative when left's is less, as docs/stdlib.md
// says). Both sides are strings or C arrays; a literal count may not pass the shorter one.
void Checker::call_memcmp(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  for (ExprPtr& a : e.operands)
    if (a->type.kind == TypeKind::None) return;
  for (int i = 0; i < 2; ++i) {
    const Type& t = e.operands[i]->type;
    if (!t.is_string() && t.kind != TypeKind::Array)
      return error(e.operands[i]->span, std::string("memcmp() compares strings or arrays; its ") +
                                            (i ? "right" : "left") + " side is " + type_name(t));
  }
  Expr& count = *e.operands[2];
  if (!count.type.is_integer()) return error(count.span, "memcmp()'s count must be an integer (" + type_name(count.type) + " given)");
  uint32_t shorter = std::min(e.operands[0]->type.size, e.operands[1]->type.size);
  if (count.kind == ExprKind::Integer && count.int_value > shorter)
    return error(count.span, "memcmp() of " + std::to_string(count.int_value) + " bytes, but " +
                                 type_name(e.operands[0]->type) + " and " + type_name(e.operands[1]->type) +
                                 " hold only " + std::to_string(shorter) + " in common: compare at most that many");
  e.type = Type::integer(8, true);
}

}  // namespace rawprobe::lang
