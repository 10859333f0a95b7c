// The named C types a script declares (struct, union and enum definitions and typedefs
// before its first probe), as a TypeSource. Lookups that this source cannot answer fall to
// the next source of a TypeChain (kernel BTF), so a script's `struct foo` hides the kernel's.
//
// It also owns the types the language derives while checking a script (`int8 *` for a cast,
// `struct foo *` for `&`), so every CTypeRef a checked program holds lives as long as it.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/ctypes/ctype.h"
#include "engine/ctypes/data_model.h"
#include "engine/ctypes/record_layout.h"

namespace rawprobe::ctypes {

class ScriptTypes : public TypeSource {
 public:
  explicit ScriptTypes(const DataModel& model = host_data_model()) : model_(model) {}

  CTypeRef find(CKind tag, std::string_view name) override;
  // The script's own enumerators first, then the fallback's (kernel BTF).
  std::optional<int64_t> enum_constant(std::string_view name) override;
  // A tag (`struct foo` with kind Struct/Union/Enum) or typedef (kind Typedef) of this script;
  // replaces a forward declaration of the same tag.
  void define(CKind tag, const std::string& name, CTypeRef type);
  // The script's own type of that name, without asking the chain below.
  CTypeRef find_own(CKind tag, std::string_view name) const;
  // Enumerator constants the script declared, for later enum values and array sizes.
  void define_constant(const std::string& name, int64_t value) { constants_[name] = value; }
  const int64_t* constant(std::string_view name) const;

  // Where names this script does not define are looked up next (kernel BTF); may be null.
  void set_fallback(TypeSource* next) { fallback_ = next; }
  TypeSource* fallback() const { return fallback_; }

  const DataModel& model() const { return model_; }
  TypeArena& arena() { return arena_; }
  AlignTable& aligns() { return aligns_; }
  uint32_t align_of(CTypeRef type) const { return ctypes::align_of(type, model_, &aligns_); }
  // C's own integer and floating types by their canonical names ("unsigned long").
  CTypeRef base_type(const std::string& name);
  CTypeRef pointer_to(CTypeRef target) { return arena_.pointer_to(target, model_.pointer.size); }

  // Every struct/union/enum tag and typedef name this script or its fallback knows, for
  // "did you mean" (the fallback's are not listed: BTF holds tens of thousands).
  std::vector<std::string> own_names(CKind tag) const;

 private:
  const DataModel& model_;
  TypeArena arena_;
  AlignTable aligns_;
  // Keyed by the tag kind's letter and the name ("Sfoo" for struct foo), so a struct and a
  // typedef may share a name as in C.
  std::map<std::string, CTypeRef, std::less<>> named_;
  std::map<std::string, int64_t, std::less<>> constants_;
  TypeSource* fallback_ = nullptr;
};

// The fixed-width integer typedefs every kernel and libc spell the same way (u8, __u32,
// int64_t, size_t ...), for scripts that run where no BTF supplies them.
CTypeRef standard_typedef(ScriptTypes& types, std::string_view name);
std::vector<std::string> standard_typedef_names();

// C's plain `char` (not `signed char` or `unsigned char`): arrays of it are text.
bool is_plain_char(CTypeRef type);

}  // namespace rawprobe::ctypes
