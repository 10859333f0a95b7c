// The C type model: what a struct, union, enum, typedef, pointer, array or function
// prototype looks like, whoever described it. Two producers fill it: the kernel's BTF
// (engine/btf) and the C declarations a script contains (struct definitions before the first
// probe). The script language reads it for casts, `->`, `.`, `[]`, `sizeof` and `offsetof`,
// and output reads it to print a struct as bpftrace does.
//
// Types are immutable once built and owned by a TypeArena, so a `CTypeRef` (a plain pointer)
// stays valid as long as the arena that made it. Qualifiers (const, volatile, restrict) and
// BTF type tags are dropped when a type is built: nothing the tracer does depends on them.
// Typedefs are kept, so a type prints under the name its source gave it.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rawprobe::ctypes {

enum class CKind : uint8_t {
  Void,      // `void`; size 0
  Int,       // integers, char and _Bool: size 1, 2, 4, 8 or 16; is_signed
  Float,     // float, double, long double: size only (the language has no floats)
  Enum,      // size and signedness of its underlying integer; enumerators
  Pointer,   // target: the pointee; size: the pointer width of the producer's architecture
  Array,     // target: the element type; count elements (0: flexible or unknown)
  Struct,    // members; size
  Union,     // members, all at bit offset 0 unless a producer says otherwise; size
  Typedef,   // name; target: the aliased type
  Function,  // a prototype: target is the return type (Void for none); params
  Forward,   // `struct X;` with no definition found; tag_kind says struct or union
};

struct CType;
using CTypeRef = const CType*;

struct CMember {
  std::string name;          // empty for an anonymous struct or union member
  CTypeRef type = nullptr;
  uint32_t bit_offset = 0;   // from the start of the enclosing struct or union
  uint32_t bit_size = 0;     // bitfield width; 0 when the member is not a bitfield
};

struct CEnumerator {
  std::string name;
  int64_t value = 0;
};

struct CParam {
  std::string name;          // may be empty (BTF keeps names for kernel functions)
  CTypeRef type = nullptr;
};

struct CType {
  CKind kind = CKind::Void;
  std::string name;          // tag or typedef name, or the integer's C name ("unsigned int");
                             // empty for anonymous records and for pointers and arrays
  uint32_t size = 0;         // bytes; 0 for void, functions and forward declarations
  bool is_signed = false;    // Int, Enum
  CTypeRef target = nullptr; // Pointer, Array, Typedef, Function (see CKind)
  uint32_t count = 0;        // Array
  CKind tag_kind = CKind::Struct;        // Forward: Struct or Union
  std::vector<CMember> members;          // Struct, Union
  std::vector<CEnumerator> enumerators;  // Enum
  std::vector<CParam> params;            // Function
  bool is_variadic = false;              // Function
};

// Owns the types a producer builds; addresses stay stable while it lives.
class TypeArena {
 public:
  CType& make(CKind kind);
  // The shared `void`, and pointers/arrays built on demand (one per target and count).
  CTypeRef void_type();
  CTypeRef pointer_to(CTypeRef target, uint32_t pointer_size = 8);
  CTypeRef array_of(CTypeRef element, uint32_t count);
  // An integer named as C names it: "int", "unsigned long", "u8", "char" ...
  CTypeRef integer(std::string name, uint32_t size, bool is_signed);

 private:
  std::deque<CType> types_;
};

// The type with its typedefs removed (the type itself when it is not a typedef).
CTypeRef strip_typedefs(CTypeRef type);

// The type as C spells it in a declaration without a name: "struct task_struct *",
// "unsigned int", "char[16]", "int (*)(int, char *)".
std::string spell(CTypeRef type);

// Size in bytes of a value of this type (following typedefs); 0 when unknown.
uint32_t size_of(CTypeRef type);

// A member of a struct or union (typedefs followed), searched also inside anonymous struct
// and union members as C does; its bit_offset is from the start of `record`.
std::optional<CMember> find_member(CTypeRef record, std::string_view name);

// True for Struct and Union after typedefs are followed.
bool is_record(CTypeRef type);

// Where named types come from. Script declarations come first and BTF after, as bpftrace
// resolves them; a chain of sources is itself a source.
class TypeSource {
 public:
  virtual ~TypeSource() = default;
  // `tag` is Struct, Union or Enum for `struct X`, `union X`, `enum X`, and Typedef for a
  // bare name such as `u64` or `pid_t`. Returns nullptr when this source has no such type.
  virtual CTypeRef find(CKind tag, std::string_view name) = 0;
  // The value of the enumerator of this name (`TCP_ESTABLISHED`), when this source declares
  // one: scripts use enum constants as plain integers, as in C.
  virtual std::optional<int64_t> enum_constant(std::string_view) { return std::nullopt; }
};

}  // namespace rawprobe::ctypes
