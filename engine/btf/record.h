// One BTF type record decoded in place: the 12-byte head and a pointer to the data that
// follows it (format.h). A Record is only made by Blob, after the record's length has been
// checked against the type section, so its accessors read inside the blob.
#pragma once
#include <cstdint>
#include <cstring>

#include "engine/btf/format.h"

namespace rawprobe::btf {

struct Record {
  uint32_t id = 0;
  Kind kind = Kind::Unknown;
  bool kind_flag = false;
  uint16_t vlen = 0;
  uint32_t name_off = 0;
  uint32_t size_or_type = 0;   // size for INT, ENUM, STRUCT, UNION, DATASEC, FLOAT; else a type id
  const uint8_t* data = nullptr;  // what follows the head
  uint32_t byte_offset = 0;    // of the head, from the start of the type section

  // The i-th 32-bit word of the data.
  uint32_t word(uint32_t i) const {
    uint32_t w;
    std::memcpy(&w, data + 4 * i, 4);
    return w;
  }
  // Word `field` of the i-th vlen element whose elements are `element_len` bytes long.
  uint32_t element(uint32_t i, uint32_t element_len, uint32_t field) const {
    return word(i * (element_len / 4) + field);
  }
};

// Bytes of data after the head for a record of this kind and vlen; -1 for an unknown kind.
int64_t data_length(Kind kind, uint16_t vlen);

// Where a record names another type: the field ("type", "member" ...), its index among the
// vlen elements (-1 for a field of the record itself) and the word's address in the blob (a
// tool that rewrites BTF patches it there).
struct TypeRef {
  uint32_t id;
  const char* field;
  int64_t index;
  const uint8_t* where;
};

// Calls visit(TypeRef) for every type id the record refers to.
template <class Visit>
void for_each_type_ref(const Record& r, Visit visit) {
  auto at = [&](uint32_t word) { return r.data + 4 * word; };
  switch (r.kind) {
    case Kind::Ptr:
    case Kind::Typedef:
    case Kind::Volatile:
    case Kind::Const:
    case Kind::Restrict:
    case Kind::Func:
    case Kind::Var:
    case Kind::DeclTag:
    case Kind::TypeTag:
      visit(TypeRef{r.size_or_type, "type", -1, r.data - 4});
      break;
    case Kind::FuncProto:
      visit(TypeRef{r.size_or_type, "return type", -1, r.data - 4});
      for (uint32_t i = 0; i < r.vlen; ++i)
        visit(TypeRef{r.element(i, kParamLen, 1), "parameter", i, at(i * 2 + 1)});
      break;
    case Kind::Array:
      visit(TypeRef{r.word(0), "element type", -1, at(0)});
      visit(TypeRef{r.word(1), "index type", -1, at(1)});
      break;
    case Kind::Struct:
    case Kind::Union:
      for (uint32_t i = 0; i < r.vlen; ++i)
        visit(TypeRef{r.element(i, kMemberLen, 1), "member", i, at(i * 3 + 1)});
      break;
    case Kind::Datasec:
      for (uint32_t i = 0; i < r.vlen; ++i)
        visit(TypeRef{r.element(i, kSecinfoLen, 0), "variable", i, at(i * 3)});
      break;
    default: break;
  }
}

// Calls visit(name_off, index, where) for the record's own name (index -1) and for the names
// of its members, enumerators or parameters (index i); `where` as in TypeRef.
template <class Visit>
void for_each_name(const Record& r, Visit visit) {
  visit(r.name_off, int64_t{-1}, r.data - kRecordLen);
  uint32_t len = r.kind == Kind::Struct || r.kind == Kind::Union ? kMemberLen
                 : r.kind == Kind::Enum                          ? kEnumLen
                 : r.kind == Kind::Enum64                        ? kEnum64Len
                 : r.kind == Kind::FuncProto                     ? kParamLen
                                                                 : 0;
  if (len == 0) return;
  for (uint32_t i = 0; i < r.vlen; ++i) visit(r.element(i, len, 0), int64_t{i}, r.data + i * len);
}

}  // namespace rawprobe::btf
