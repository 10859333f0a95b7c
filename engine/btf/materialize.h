// Turns BTF type ids into ctypes::CType objects, only for the ids asked for and the types they
// reach, each once. Qualifiers (const, volatile, restrict) and type tags are dropped; typedefs
// are kept; a forward declaration becomes the full definition the resolver finds by name, or
// a CKind::Forward when none exists. Old-style bitfields (an INT member type narrower than its
// size, for BTF without kind_flag) get the same bit offset and width as kind_flag ones.
//
// Structs and unions are made as shells first (name and size) and their members filled from a
// worklist, so self-referencing records (`struct list_head { struct list_head *next; }`) and
// long chains of pointers between records use no recursion depth. Only chains of typedefs,
// qualifiers, pointers, arrays and prototypes recurse, and a loop among those is an error, as
// is a record that holds itself by value (through members, not pointers).
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "engine/base/result.h"
#include "engine/btf/blob.h"
#include "engine/ctypes/ctype.h"

namespace rawprobe::btf {

// A type in a set of blobs: the blob that owns the id.
struct TypeId {
  const Blob* blob = nullptr;
  uint32_t id = 0;
};

class Materializer {
 public:
  // Finds the STRUCT (Struct) or UNION (Union) of this name for a forward declaration seen in
  // `from`; nullopt when no blob defines it.
  using ForwardResolver = std::function<std::optional<TypeId>(ctypes::CKind, std::string_view name,
                                                              const Blob& from)>;

  Materializer(ctypes::TypeArena& arena, ForwardResolver resolve, uint32_t pointer_size);

  // The C type of `id` as `blob` sees it (ids below blob.first_id() are its base's). On an
  // error nothing this call made stays cached.
  Result<ctypes::CTypeRef> type(const Blob& blob, uint32_t id);

  // How many BTF ids have become C types so far (for the timing report and tests).
  size_t materialized() const { return materialized_; }

 private:
  struct Slots {
    std::vector<ctypes::CTypeRef> types;  // per own id; nullptr until made
    std::vector<uint8_t> building;        // per own id; 1 while its chain is being made
  };
  struct Pending {
    const Blob* blob;
    uint32_t id;
    ctypes::CType* shell;
  };

  Result<ctypes::CTypeRef> build(const Blob& blob, uint32_t id, int depth);
  Result<ctypes::CTypeRef> build_kind(const Blob& owner, const Record& r, int depth);
  Status fill_record(const Pending& p);
  // Refuses records that hold themselves by value, or nest too deep, among those just filled.
  Status check_nesting(const Blob& blob, const std::vector<ctypes::CTypeRef>& records);
  Slots& slots(const Blob& owner);
  void remember(const Blob& owner, uint32_t id, ctypes::CTypeRef type);
  Error error(const Blob& blob, uint32_t id, std::string what) const;

  ctypes::TypeArena& arena_;
  ForwardResolver resolve_;
  uint32_t pointer_size_;
  ctypes::CTypeRef void_ = nullptr;
  std::unordered_map<const Blob*, Slots> slots_;
  std::unordered_map<ctypes::CTypeRef, ctypes::CTypeRef> pointers_;
  std::map<std::pair<ctypes::CTypeRef, uint32_t>, ctypes::CTypeRef> arrays_;
  std::vector<Pending> pending_;
  std::unordered_map<ctypes::CTypeRef, uint32_t> nesting_;  // a checked record's by-value depth
  std::vector<TypeId> made_this_call_;  // forgotten again if the call fails
  size_t materialized_ = 0;
};

// The blob that owns `id` when `blob` refers to it.
const Blob& owner_of(const Blob& blob, uint32_t id);

}  // namespace rawprobe::btf
