#include "engine/btf/record.h"

namespace rawprobe::btf {

int64_t data_length(Kind kind, uint16_t vlen) {
  switch (kind) {
    case Kind::Int: return 4;
    case Kind::Ptr:
    case Kind::Fwd:
    case Kind::Typedef:
    case Kind::Volatile:
    case Kind::Const:
    case Kind::Restrict:
    case Kind::Func:
    case Kind::Float:
    case Kind::TypeTag: return 0;
    case Kind::Array: return kArrayLen;
    case Kind::Struct:
    case Kind::Union: return int64_t{vlen} * kMemberLen;
    case Kind::Enum: return int64_t{vlen} * kEnumLen;
    case Kind::Enum64: return int64_t{vlen} * kEnum64Len;
    case Kind::FuncProto: return int64_t{vlen} * kParamLen;
    case Kind::Var: return kVarLen;
    case Kind::Datasec: return int64_t{vlen} * kSecinfoLen;
    case Kind::DeclTag: return kDeclTagLen;
    case Kind::Unknown: break;
  }
  return -1;
}

const char* kind_name(Kind kind) {
  static const char* const names[] = {
      "UNKN",  "INT",   "PTR",      "ARRAY", "STRUCT",   "UNION",  "ENUM",
      "FWD",   "TYPEDEF", "VOLATILE", "CONST", "RESTRICT", "FUNC", "FUNC_PROTO",
      "VAR",   "DATASEC", "FLOAT",  "DECL_TAG", "TYPE_TAG", "ENUM64"};
  auto k = static_cast<uint8_t>(kind);
  return k <= kMaxKind ? names[k] : "?";
}

}  // namespace rawprobe::btf
