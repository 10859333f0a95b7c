#include "engine/ctypes/script_types.h"

namespace rawprobe::ctypes {

namespace {
std::string key_of(CKind tag, std::string_view name) {
  return static_cast<char>('A' + static_cast<int>(tag)) + std::string(name);
}
}  // namespace

CTypeRef ScriptTypes::find_own(CKind tag, std::string_view name) const {
  auto it = named_.find(key_of(tag, name));
  return it == named_.end() ? nullptr : it->second;
}

CTypeRef ScriptTypes::find(CKind tag, std::string_view name) {
  CTypeRef own = find_own(tag, name);
  // A tag the script only forward-declared may be defined further down the chain.
  if (own && own->kind != CKind::Forward) return own;
  if (fallback_)
    if (CTypeRef t = fallback_->find(tag, name)) return t;
  if (own) return own;
  if (tag == CKind::Typedef) return standard_typedef(*this, name);
  return nullptr;
}

void ScriptTypes::define(CKind tag, const std::string& name, CTypeRef type) { named_[key_of(tag, name)] = type; }

std::optional<int64_t> ScriptTypes::enum_constant(std::string_view name) {
  if (const int64_t* own = constant(name)) return *own;
  return fallback_ ? fallback_->enum_constant(name) : std::nullopt;
}

const int64_t* ScriptTypes::constant(std::string_view name) const {
  auto it = constants_.find(name);
  return it == constants_.end() ? nullptr : &it->second;
}

std::vector<std::string> ScriptTypes::own_names(CKind tag) const {
  std::vector<std::string> out;
  std::string prefix = key_of(tag, "");
  for (const auto& [key, type] : named_)
    if (key.compare(0, 1, prefix) == 0) out.push_back(key.substr(1));
  return out;
}

CTypeRef ScriptTypes::base_type(const std::string& name) {
  struct Base {
    const char* name;
    ScalarRule DataModel::*rule;
    int is_signed;  // -1: plain char, whose sign the model gives
    CKind kind;
  };
  static const Base kBases[] = {
      {"char", &DataModel::char_type, -1, CKind::Int},
      {"signed char", &DataModel::char_type, 1, CKind::Int},
      {"unsigned char", &DataModel::char_type, 0, CKind::Int},
      {"short", &DataModel::short_type, 1, CKind::Int},
      {"unsigned short", &DataModel::short_type, 0, CKind::Int},
      {"int", &DataModel::int_type, 1, CKind::Int},
      {"unsigned int", &DataModel::int_type, 0, CKind::Int},
      {"long", &DataModel::long_type, 1, CKind::Int},
      {"unsigned long", &DataModel::long_type, 0, CKind::Int},
      {"long long", &DataModel::long_long, 1, CKind::Int},
      {"unsigned long long", &DataModel::long_long, 0, CKind::Int},
      {"_Bool", &DataModel::bool_type, 0, CKind::Int},
      {"float", &DataModel::float_type, 1, CKind::Float},
      {"double", &DataModel::double_type, 1, CKind::Float},
      {"long double", &DataModel::long_double, 1, CKind::Float},
  };
  if (name == "void") return arena_.void_type();
  for (const Base& b : kBases) {
    if (name != b.name) continue;
    const ScalarRule& r = model_.*b.rule;
    bool is_signed = b.is_signed < 0 ? model_.char_signed : b.is_signed == 1;
    if (b.kind == CKind::Int) return arena_.integer(name, r.size, is_signed);
    CType& f = arena_.make(CKind::Float);
    f.name = name;
    f.size = r.size;
    f.is_signed = true;
    return &f;
  }
  return nullptr;
}

namespace {

struct Std {
  const char* names[4];
  uint32_t size;  // 0: the size of `long` in the model
  bool is_signed;
};
constexpr Std kStd[] = {
      {{"u8", "__u8", "uint8_t", "uint8"}, 1, false},     {{"s8", "__s8", "int8_t", "int8"}, 1, true},
      {{"u16", "__u16", "uint16_t", "uint16"}, 2, false}, {{"s16", "__s16", "int16_t", "int16"}, 2, true},
      {{"u32", "__u32", "uint32_t", "uint32"}, 4, false}, {{"s32", "__s32", "int32_t", "int32"}, 4, true},
      {{"u64", "__u64", "uint64_t", "uint64"}, 8, false}, {{"s64", "__s64", "int64_t", "int64"}, 8, true},
      {{"size_t", "uintptr_t", "__kernel_size_t", "__kernel_ulong_t"}, 0, false},
      {{"ssize_t", "intptr_t", "__kernel_ssize_t", "__kernel_long_t"}, 0, true},
};

}  // namespace

bool is_plain_char(CTypeRef type) {
  return type && type->kind == CKind::Int && type->size == 1 && type->name == "char";
}

std::vector<std::string> standard_typedef_names() {
  std::vector<std::string> out;
  for (const Std& s : kStd)
    for (const char* n : s.names) out.push_back(n);
  return out;
}

CTypeRef standard_typedef(ScriptTypes& types, std::string_view name) {
  for (const Std& s : kStd) {
    for (const char* n : s.names) {
      if (!n || name != n) continue;
      uint32_t size = s.size ? s.size : types.model().long_type.size;
      // Named as the script wrote it, so errors and printed types keep its spelling.
      return types.arena().integer(std::string(name), size, s.is_signed);
    }
  }
  return nullptr;
}

}  // namespace rawprobe::ctypes
