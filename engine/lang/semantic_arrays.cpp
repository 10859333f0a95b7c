// Arrays in comparisons, as bpftrace 0.17 types them: two arrays of the same length whose
// elements are integers of one size (so of the same byte size) compare with == and != (pton("::1") == $addr,
// $p->a == $p->b), element by element; no other operator takes an array.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {
namespace {

ctypes::CTypeRef element_of(const Type& array) { return ctypes::strip_typedefs(ctypes::strip_typedefs(array.ctype)->target); }
uint32_t length_of(const Type& array) { return ctypes::strip_typedefs(array.ctype)->count; }

bool integer_elements(const Type& array) {
  ctypes::CTypeRef elem = element_of(array);
  return elem && (elem->kind == ctypes::CKind::Int || elem->kind == ctypes::CKind::Enum);
}

}  // namespace

bool Checker::array_binary(Expr& e) {
  const Type& l = e.operands[0]->type;
  const Type& r = e.operands[1]->type;
  if (l.kind != TypeKind::Array || r.kind != TypeKind::Array) return false;
  // bpftrace 0.17's words. It points at the operator; rawprobe's spans start at the left
  // operand.
  if (e.op != Op::Eq && e.op != Op::Ne) {
    error(e.span, std::string("The ") + op_spelling(e.op) + " operator cannot be used on arrays.");
    return true;
  }
  if (length_of(l) != length_of(r)) {  // in elements: int[4] and uint8[4] are of one "size"
    error(e.span, "Only arrays of same size support comparison operators.");
    return true;
  }
  if (!integer_elements(l) || !integer_elements(r) || element_of(l)->size != element_of(r)->size) {
    error(e.span, "Only arrays of same sized integer support comparison operators.");
    return true;
  }
  e.type = Type::integer(8, false);
  return true;
}

}  // namespace rawprobe::lang
