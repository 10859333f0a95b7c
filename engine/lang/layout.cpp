#include "engine/lang/layout.h"

#include <algorithm>

namespace rawprobe::lang {

uint32_t type_alignment(const Type& t) {
  switch (t.kind) {
    case TypeKind::String:
    case TypeKind::Buffer:
    case TypeKind::None: return 1;
    case TypeKind::Tuple: {
      uint32_t a = 1;
      for (const Type& f : t.fields) a = std::max(a, type_alignment(f));
      return a;
    }
    default: return std::clamp<uint32_t>(t.size, 1, 8);
  }
}

Layout c_struct_layout(const std::vector<Type>& fields, uint32_t start, uint32_t start_align) {
  Layout l;
  uint32_t at = start, align = std::max<uint32_t>(1, start_align);
  for (const Type& f : fields) {
    uint32_t a = type_alignment(f);
    align = std::max(align, a);
    at = (at + a - 1) / a * a;
    l.offsets.push_back(at);
    at += f.size;
  }
  l.size = (at + align - 1) / align * align;
  return l;
}

Layout packed_layout(const std::vector<Type>& fields) {
  Layout l;
  for (const Type& f : fields) {
    l.offsets.push_back(l.size);
    l.size += f.size;
  }
  return l;
}

Type widen_integer(const Type& t) {
  return t.kind == TypeKind::Integer ? Type::integer(8, t.is_signed) : t;
}

}  // namespace rawprobe::lang
