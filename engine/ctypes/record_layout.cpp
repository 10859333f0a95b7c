#include "engine/ctypes/record_layout.h"

#include <algorithm>
#include <map>

namespace rawprobe::ctypes {
namespace {

uint64_t round_up(uint64_t v, uint64_t to) { return to ? (v + to - 1) / to * to : v; }

uint32_t scalar_align(uint32_t size, bool is_float, const DataModel& model) {
  const ScalarRule* ints[] = {&model.char_type, &model.short_type, &model.int_type,
                              &model.long_type, &model.long_long, &model.pointer};
  const ScalarRule* floats[] = {&model.float_type, &model.double_type, &model.long_double};
  if (is_float) {
    for (const ScalarRule* r : floats)
      if (r->size == size) return r->align;
  } else {
    for (const ScalarRule* r : ints)
      if (r->size == size) return r->align;
  }
  return size ? std::min<uint32_t>(size, 16) : 1;  // __int128 and the like
}

}  // namespace

uint32_t align_of(CTypeRef type, const DataModel& model, const AlignTable* explicit_aligns) {
  for (int depth = 0; type && depth < 64; ++depth) {
    switch (type->kind) {
      case CKind::Typedef:
        type = type->target;
        continue;
      case CKind::Array:
        type = type->target;
        continue;
      case CKind::Int:
      case CKind::Enum: return scalar_align(type->size, false, model);
      case CKind::Float: return scalar_align(type->size, true, model);
      case CKind::Pointer: return model.pointer.align;
      case CKind::Struct:
      case CKind::Union: {
        if (explicit_aligns) {
          auto it = explicit_aligns->find(type);
          if (it != explicit_aligns->end()) return it->second;
        }
        uint32_t a = 1;
        for (const CMember& m : type->members)
          if (!m.name.empty() || m.bit_size == 0) a = std::max(a, align_of(m.type, model, explicit_aligns));
        return a;
      }
      default: return 1;
    }
  }
  return 1;
}

void lay_out_record(CType& record, const std::vector<MemberDecl>& members, const RecordAttrs& attrs,
                    const DataModel& model, AlignTable& aligns) {
  bool is_union = record.kind == CKind::Union;
  uint64_t bit = 0;       // struct: the next free bit
  uint64_t max_bits = 0;  // union: the widest member
  uint32_t record_align = 1;
  for (const MemberDecl& d : members) {
    uint32_t size = size_of(d.type);
    uint32_t natural = align_of(d.type, model, &aligns);
    uint32_t align = attrs.packed ? 1 : natural;
    if (d.align_attr) align = std::max(align, d.align_attr);
    uint64_t at = is_union ? 0 : bit;
    if (!d.bit_width) {
      at = round_up(at, uint64_t{align} * 8);
      record.members.push_back(CMember{d.name, d.type, static_cast<uint32_t>(at), 0});
      at += uint64_t{size} * 8;
      record_align = std::max(record_align, align);
    } else if (*d.bit_width == 0) {
      // Even packed, a zero-width bit-field moves to its type's boundary.
      at = round_up(at, uint64_t{natural} * 8);
    } else {
      uint64_t width = *d.bit_width;
      uint64_t unit = uint64_t{natural} * 8;
      if (!attrs.packed && unit && (at % unit) + width > uint64_t{size} * 8) at = round_up(at, unit);
      record.members.push_back(CMember{d.name, d.type, static_cast<uint32_t>(at), static_cast<uint32_t>(width)});
      at += width;
      if (!d.name.empty()) record_align = std::max(record_align, align);
    }
    if (is_union) max_bits = std::max(max_bits, at);
    else bit = at;
  }
  if (attrs.align) record_align = std::max(record_align, attrs.align);
  uint64_t bytes = ((is_union ? max_bits : bit) + 7) / 8;
  record.size = static_cast<uint32_t>(round_up(bytes, record_align));
  aligns.erase(&record);
  if (align_of(&record, model, &aligns) != record_align) aligns[&record] = record_align;
}

}  // namespace rawprobe::ctypes
