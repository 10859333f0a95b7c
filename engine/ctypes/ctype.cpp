#include "engine/ctypes/ctype.h"

namespace rawprobe::ctypes {

CType& TypeArena::make(CKind kind) {
  CType& t = types_.emplace_back();
  t.kind = kind;
  return t;
}

CTypeRef TypeArena::void_type() {
  for (const CType& t : types_)
    if (t.kind == CKind::Void) return &t;
  return &make(CKind::Void);
}

CTypeRef TypeArena::pointer_to(CTypeRef target, uint32_t pointer_size) {
  for (const CType& t : types_)
    if (t.kind == CKind::Pointer && t.target == target && t.size == pointer_size) return &t;
  CType& p = make(CKind::Pointer);
  p.target = target;
  p.size = pointer_size;
  return &p;
}

CTypeRef TypeArena::array_of(CTypeRef element, uint32_t count) {
  for (const CType& t : types_)
    if (t.kind == CKind::Array && t.target == element && t.count == count) return &t;
  CType& a = make(CKind::Array);
  a.target = element;
  a.count = count;
  a.size = size_of(element) * count;
  return &a;
}

CTypeRef TypeArena::integer(std::string name, uint32_t size, bool is_signed) {
  for (const CType& t : types_)
    if (t.kind == CKind::Int && t.name == name && t.size == size && t.is_signed == is_signed)
      return &t;
  CType& i = make(CKind::Int);
  i.name = std::move(name);
  i.size = size;
  i.is_signed = is_signed;
  return &i;
}

CTypeRef strip_typedefs(CTypeRef type) {
  // A typedef chain from a malformed producer could loop; no real chain is this deep.
  for (int depth = 0; type && type->kind == CKind::Typedef && depth < 64; ++depth)
    type = type->target;
  return type;
}

uint32_t size_of(CTypeRef type) {
  type = strip_typedefs(type);
  return type ? type->size : 0;
}

bool is_record(CTypeRef type) {
  type = strip_typedefs(type);
  return type && (type->kind == CKind::Struct || type->kind == CKind::Union);
}

std::optional<CMember> find_member(CTypeRef record, std::string_view name) {
  record = strip_typedefs(record);
  if (!record || (record->kind != CKind::Struct && record->kind != CKind::Union)) return {};
  for (const CMember& m : record->members) {
    if (!m.name.empty()) {
      if (m.name == name) return m;
      continue;
    }
    if (auto inner = find_member(m.type, name)) {
      inner->bit_offset += m.bit_offset;
      return inner;
    }
  }
  return {};
}

namespace {

const char* tag_word(CKind kind) {
  switch (kind) {
    case CKind::Struct: return "struct ";
    case CKind::Union: return "union ";
    case CKind::Enum: return "enum ";
    default: return "";
  }
}

// C's declarator syntax wraps outward from the name: `inner` is what has been built so far
// around the (absent) name, and each pointer, array or function layer adds to it.
std::string spell_around(CTypeRef type, const std::string& inner, int depth) {
  if (!type) return "void" + (inner.empty() ? "" : " " + inner);
  if (depth > 64) return "...";
  switch (type->kind) {
    case CKind::Pointer: {
      CTypeRef pointee = type->target;
      bool wrap = pointee && (pointee->kind == CKind::Array || pointee->kind == CKind::Function);
      return spell_around(pointee, wrap ? "(*" + inner + ")" : "*" + inner, depth + 1);
    }
    case CKind::Array:
      return spell_around(type->target, inner + "[" + std::to_string(type->count) + "]",
                          depth + 1);
    case CKind::Function: {
      std::string params;
      for (size_t i = 0; i < type->params.size(); ++i)
        params += (i ? ", " : "") + spell(type->params[i].type);
      if (type->is_variadic) params += params.empty() ? "..." : ", ...";
      if (type->params.empty() && !type->is_variadic) params = "void";
      return spell_around(type->target, inner + "(" + params + ")", depth + 1);
    }
    case CKind::Forward:
    case CKind::Struct:
    case CKind::Union:
    case CKind::Enum: {
      CKind tag = type->kind == CKind::Forward ? type->tag_kind : type->kind;
      std::string base = std::string(tag_word(tag)) + (type->name.empty() ? "(anon)" : type->name);
      return inner.empty() || inner[0] == '[' ? base + inner : base + " " + inner;
    }
    case CKind::Void:
    case CKind::Int:
    case CKind::Float:
    case CKind::Typedef: {
      std::string base = type->kind == CKind::Void ? "void" : type->name;
      return inner.empty() || inner[0] == '[' ? base + inner : base + " " + inner;
    }
  }
  return inner;
}

}  // namespace

std::string spell(CTypeRef type) { return spell_around(type, "", 0); }

}  // namespace rawprobe::ctypes
