// Names of one blob's types, indexed on first use: a blob that no lookup reaches is never
// scanned, and each kind is indexed on its first lookup. Each index maps a name to the first id that defines it in blob order (BTF dedup can
// leave two definitions of one name; the first is the one bpftool lists first).
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "engine/btf/blob.h"
#include "engine/ctypes/ctype.h"

namespace rawprobe::btf {

class NameIndex {
 public:
  explicit NameIndex(const Blob& blob) : blob_(blob) {}

  // The id of this blob's own STRUCT (Struct), UNION (Union), ENUM or ENUM64 (Enum), TYPEDEF
  // (Typedef) or FUNC (Function) of that name. Forward declarations are not definitions.
  std::optional<uint32_t> find(ctypes::CKind tag, std::string_view name);

  // The enum that declares an enumerator of this name, and the enumerator's index in it.
  struct EnumeratorAt {
    uint32_t enum_id;
    uint32_t index;
  };
  std::optional<EnumeratorAt> find_enumerator(std::string_view name);

 private:
  using Index = std::unordered_map<std::string_view, uint32_t>;
  // Each index is built by one scan over the records, when its kind is first asked for (a
  // script that names only structs never hashes the ~60,000 function names of vmlinux).
  const Index& index(Kind a, Kind b);
  void build_enumerators();

  const Blob& blob_;
  std::unordered_map<uint8_t, Index> by_kind_;  // keyed by the first of the kinds it holds
  bool enumerators_built_ = false;
  std::unordered_map<std::string_view, EnumeratorAt> enumerators_;
};

}  // namespace rawprobe::btf
