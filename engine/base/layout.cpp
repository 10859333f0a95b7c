#include "engine/base/layout.h"

#include <algorithm>

namespace rawprobe {

namespace {
uint32_t round_up(uint32_t n, uint32_t align) { return (n + align - 1) / align * align; }
}  // namespace

uint32_t type_align(const Type& type) {
  switch (type.kind) {
    case TypeKind::Integer:
      return std::clamp<uint32_t>(type.size, 1, 8);
    case TypeKind::Record:
    case TypeKind::Array:
      return type.size >= 8 ? 8 : 1;  // copied in chunks that fit either alignment
    case TypeKind::String:
    case TypeKind::Buffer:
    case TypeKind::BufferHex:
    case TypeKind::MacAddr:
    case TypeKind::None:
      return 1;
    case TypeKind::Tuple:
      return layout_of(type.fields).align;
    default:
      return 8;  // aggregations, stacks, symbols, timestamps: u64 words
  }
}

uint32_t type_size(const Type& type) {
  if (type.kind == TypeKind::Tuple) return layout_of(type.fields).size;
  return type.size;
}

StructLayout layout_of(const std::vector<Type>& fields) {
  StructLayout layout;
  layout.offsets.reserve(fields.size());
  uint32_t offset = 0;
  for (const Type& field : fields) {
    uint32_t align = type_align(field);
    offset = round_up(offset, align);
    layout.offsets.push_back(offset);
    offset += type_size(field);
    layout.align = std::max(layout.align, align);
  }
  layout.size = round_up(offset, layout.align);
  return layout;
}

Type tuple_of(std::vector<Type> fields) {
  Type tuple;
  tuple.kind = TypeKind::Tuple;
  tuple.fields = std::move(fields);
  tuple.size = layout_of(tuple.fields).size;
  return tuple;
}

Type widen_integer(const Type& type) {
  if (type.is_bool) return type;
  return type.is_integer() ? Type::integer(8, type.is_signed) : type;
}

}  // namespace rawprobe
