#include "engine/runtime/point_text.h"

#include <algorithm>
#include <cstring>

#include "engine/base/layout.h"

namespace rawprobe::runtime {
namespace {

bool is_point(const Type& t) { return t.kind == TypeKind::Probe || t.kind == TypeKind::Func; }
bool is_id(const Type& t) { return is_point(t) || StackText::handles(t); }

}  // namespace

PointText::PointText(const std::vector<codegen::PointName>* names) : names_(names) {
  for (const codegen::PointName& n : *names) {
    probe_bytes_ = std::max(probe_bytes_, uint32_t(n.probe.size() + 1));
    func_bytes_ = std::max(func_bytes_, uint32_t(n.func.size() + 1));
  }
}

bool PointText::has_ids(const Type& type) {
  return is_id(type) || (type.kind == TypeKind::Tuple && has_ids(type.fields));
}

bool PointText::has_ids(const std::vector<Type>& types) {
  return std::any_of(types.begin(), types.end(), [](const Type& t) { return has_ids(t); });
}

bool PointText::has_points(const std::vector<Type>& types) {
  for (const Type& t : types)
    if (is_point(t) || (t.kind == TypeKind::Tuple && has_points(t.fields))) return true;
  return false;
}

void PointText::reset_width() {
  symbol_bytes_ = 1;
  if (symbols_) symbols_->forget_texts();
}

void PointText::fit(const std::vector<Type>& types, const uint8_t* from) {
  StructLayout in = layout_of(types);
  for (size_t i = 0; i < types.size(); ++i) fit(types[i], from + in.offsets[i]);
}

void PointText::fit(const Type& type, const uint8_t* from) {
  if (type.kind == TypeKind::Tuple) return fit(type.fields, from);
  if (!symbols_ || !StackText::handles(type)) return;
  symbol_bytes_ = std::max(symbol_bytes_, uint32_t(symbols_->text(type, from, style_).size() + 1));
}

Type PointText::text_type(const Type& type) const {
  if (StackText::handles(type)) return Type::string(symbol_bytes_);
  if (type.kind == TypeKind::Probe) return Type::string(probe_bytes_);
  if (type.kind == TypeKind::Func) return Type::string(func_bytes_);
  if (type.kind == TypeKind::Tuple && has_ids(type.fields)) return tuple_of(text_types(type.fields));
  return type;
}

std::vector<Type> PointText::text_types(const std::vector<Type>& types) const {
  std::vector<Type> out;
  out.reserve(types.size());
  for (const Type& t : types) out.push_back(text_type(t));
  return out;
}

void PointText::write_text(const std::vector<Type>& types, const uint8_t* from, uint8_t* to) const {
  StructLayout in = layout_of(types);
  std::vector<Type> texts = text_types(types);
  StructLayout out = layout_of(texts);
  std::memset(to, 0, out.size);
  for (size_t i = 0; i < types.size(); ++i) write_text(types[i], from + in.offsets[i], to + out.offsets[i]);
}

void PointText::write_text(const Type& type, const uint8_t* from, uint8_t* to) const {
  if (type.kind == TypeKind::Tuple && has_ids(type.fields)) return write_text(type.fields, from, to);
  if (!is_id(type)) {
    std::memcpy(to, from, type_size(type));
    return;
  }
  if (StackText::handles(type)) {
    std::memset(to, 0, symbol_bytes_);
    if (!symbols_) return;
    const std::string& text = symbols_->text(type, from, style_);
    std::memcpy(to, text.data(), std::min<size_t>(text.size(), symbol_bytes_ - 1));
    return;
  }
  uint64_t id;
  std::memcpy(&id, from, 8);
  uint32_t room = type.kind == TypeKind::Probe ? probe_bytes_ : func_bytes_;
  std::memset(to, 0, room);
  // An id no program can produce prints as an empty string rather than reading past the table.
  if (!names_ || id >= names_->size()) return;
  const std::string& text = type.kind == TypeKind::Probe ? (*names_)[id].probe : (*names_)[id].func;
  std::memcpy(to, text.data(), std::min<size_t>(text.size(), room - 1));
}

}  // namespace rawprobe::runtime
