// Casts between integers and arrays of integers or bools (docs/language.md of bpftrace 0.26.1,
// "Array casts"): `(int8[8]) 12345` is the integer's bytes as an array, `(uint64) $a` an
// array's bytes as an integer. Both sides must have the same size; `(uint8[]) x` takes its
// count from x's size. The bytes are the machine's: little-endian here, as in bpftrace.
#include "engine/base/type_names.h"
#include "engine/ctypes/ctype.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::cast_to_array(Expr& e) {
  const Type& from = e.operands[0]->type;
  const Type& element = e.cast_type;
  uint32_t element_size = element.is_bool ? 1 : element.size;
  std::string element_name = element.is_bool ? "bool" : type_name(element);
  uint64_t count = e.int_value - 1;
  std::string written = element_name + "[" + (count ? std::to_string(count) : "") + "]";
  if (!from.is_integer()) {
    return error(e.span, "Cannot cast from '" + type_name(from) + "' to '" + written +
                             "': only an integer's bytes make an array (arrays cast to integers)");
  }
  if (count == 0) count = from.size / element_size;
  if (count * element_size != from.size) {
    return error(e.span, "Cannot cast from '" + type_name(from) + "' to '" + written + "': the array has " +
                             std::to_string(count * element_size) + " bytes, the integer " +
                             std::to_string(from.size) + "; both sides of an array cast must have the same size");
  }
  ctypes::TypeArena& arena = c_types().arena();
  std::string c_element = element.is_bool ? "bool" : (element.is_signed ? "int" : "unsigned int") +
                                                         std::to_string(element.size * 8);
  ctypes::CTypeRef array =
      arena.array_of(arena.integer(c_element, element_size, element.is_signed), static_cast<uint32_t>(count));
  e.type = Type{TypeKind::Array, array->size, false, {}};
  e.type.ctype = array;
  e.type.c_name = ctypes::spell(array);
}

void Checker::cast_from_array(Expr& e) {
  const Type& from = e.operands[0]->type;
  if (!e.cast_type.is_integer() || e.cast_type.is_bool || from.size != e.cast_type.size) {
    return error(e.span, "Cannot cast from '" + type_name(from) + "' to '" + type_name(e.cast_type) + "': an array (" +
                             std::to_string(from.size) + " bytes) casts only to an integer of its size");
  }
  e.type = e.cast_type;
}

}  // namespace rawprobe::lang
