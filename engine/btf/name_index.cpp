#include "engine/btf/name_index.h"

namespace rawprobe::btf {

using ctypes::CKind;

const NameIndex::Index& NameIndex::index(Kind a, Kind b) {
  auto [it, fresh] = by_kind_.try_emplace(static_cast<uint8_t>(a));
  if (!fresh) return it->second;
  for (uint32_t id = blob_.first_id(); id < blob_.end_id(); ++id) {
    Record r = blob_.record(id);
    if ((r.kind == a || r.kind == b) && r.name_off != 0)
      it->second.emplace(blob_.string(r.name_off), id);  // keeps the first
  }
  return it->second;
}

void NameIndex::build_enumerators() {
  enumerators_built_ = true;
  for (uint32_t id = blob_.first_id(); id < blob_.end_id(); ++id) {
    Record r = blob_.record(id);
    if (r.kind != Kind::Enum && r.kind != Kind::Enum64) continue;
    uint32_t len = r.kind == Kind::Enum ? kEnumLen : kEnum64Len;
    for (uint32_t i = 0; i < r.vlen; ++i)
      enumerators_.emplace(blob_.string(r.element(i, len, 0)), EnumeratorAt{id, i});
  }
}

std::optional<uint32_t> NameIndex::find(CKind tag, std::string_view name) {
  const Index* in = nullptr;
  switch (tag) {
    case CKind::Struct: in = &index(Kind::Struct, Kind::Struct); break;
    case CKind::Union: in = &index(Kind::Union, Kind::Union); break;
    case CKind::Enum: in = &index(Kind::Enum, Kind::Enum64); break;
    case CKind::Typedef: in = &index(Kind::Typedef, Kind::Typedef); break;
    case CKind::Function: in = &index(Kind::Func, Kind::Func); break;
    default: return {};
  }
  auto it = in->find(name);
  if (it == in->end()) return {};
  return it->second;
}

std::optional<NameIndex::EnumeratorAt> NameIndex::find_enumerator(std::string_view name) {
  if (!enumerators_built_) build_enumerators();
  auto it = enumerators_.find(name);
  if (it == enumerators_.end()) return {};
  return it->second;
}

}  // namespace rawprobe::btf
