#include "engine/dwarf/function_params.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include <map>

namespace rawprobe::dwarf {
namespace {

// Owns the descriptor and the Dwarf handle for one read.
class DwarfFile {
 public:
  explicit DwarfFile(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ >= 0) dw_ = dwarf_begin(fd_, DWARF_C_READ);
  }
  ~DwarfFile() {
    if (dw_) dwarf_end(dw_);
    if (fd_ >= 0) ::close(fd_);
  }
  DwarfFile(const DwarfFile&) = delete;
  DwarfFile& operator=(const DwarfFile&) = delete;
  int fd() const { return fd_; }
  Dwarf* get() const { return dw_; }

 private:
  int fd_;
  Dwarf* dw_ = nullptr;
};

// The DIE an attribute refers to (DW_AT_type ...), following abstract origins and
// specifications as dwarf_attr_integrate does; false when there is none (void).
bool referenced(Dwarf_Die* die, unsigned attr, Dwarf_Die* out) {
  Dwarf_Attribute a;
  return dwarf_attr_integrate(die, attr, &a) && dwarf_formref_die(&a, out);
}

uint64_t udata(Dwarf_Die* die, unsigned attr, uint64_t fallback = 0) {
  Dwarf_Attribute a;
  Dwarf_Word v;
  if (!dwarf_attr_integrate(die, attr, &a) || dwarf_formudata(&a, &v) != 0) return fallback;
  return v;
}

std::string name_of(Dwarf_Die* die) {
  const char* n = dwarf_diename(die);
  return n ? n : "";
}

// Elements of one array dimension: DW_AT_count, or DW_AT_upper_bound + 1 (0: unknown).
uint32_t dimension(Dwarf_Die* subrange) {
  if (dwarf_hasattr(subrange, DW_AT_count)) return static_cast<uint32_t>(udata(subrange, DW_AT_count));
  if (dwarf_hasattr(subrange, DW_AT_upper_bound)) return static_cast<uint32_t>(udata(subrange, DW_AT_upper_bound) + 1);
  return 0;
}

// The type as bpftrace 0.17 prints a parameter under -lv: "int", "long int", "char**",
// "const char*", "struct point*" (no space before '*').
std::string spelling(Dwarf_Die* type, bool present) {
  if (!present) return "void";
  Dwarf_Die target;
  bool has_target = referenced(type, DW_AT_type, &target);
  switch (dwarf_tag(type)) {
    case DW_TAG_pointer_type: return spelling(&target, has_target) + "*";
    case DW_TAG_reference_type: return spelling(&target, has_target) + "&";
    // bpftrace 0.17 writes a const pointer's qualifier after it ("char* const*") and any other
    // const before ("const char*").
    case DW_TAG_const_type:
      if (has_target && dwarf_tag(&target) == DW_TAG_pointer_type) return spelling(&target, true) + " const";
      return "const " + spelling(&target, has_target);
    case DW_TAG_volatile_type: return "volatile " + spelling(&target, has_target);
    case DW_TAG_restrict_type:
    case DW_TAG_atomic_type: return spelling(&target, has_target);
    case DW_TAG_structure_type: return "struct " + name_of(type);
    case DW_TAG_union_type: return "union " + name_of(type);
    case DW_TAG_enumeration_type: return "enum " + name_of(type);
    case DW_TAG_class_type: return "class " + name_of(type);
    case DW_TAG_array_type: {
      std::string dims;
      Dwarf_Die sub;
      if (dwarf_child(type, &sub) == 0) do {
          if (dwarf_tag(&sub) == DW_TAG_subrange_type) dims += "[" + std::to_string(dimension(&sub)) + "]";
        } while (dwarf_siblingof(&sub, &sub) == 0);
      return spelling(&target, has_target) + dims;
    }
    // bpftrace 0.17 prints "<unknown type>" here; the return type says more.
    case DW_TAG_subroutine_type: return spelling(&target, has_target) + "()";
    default: return name_of(type);
  }
}

// Builds C types from DIEs into a script's arena; one CType per DIE, so self-referencing
// structs (a list node's `next`) terminate.
class TypeBuilder {
 public:
  explicit TypeBuilder(ctypes::ScriptTypes& types) : types_(types) {}

  ctypes::CTypeRef build(Dwarf_Die* die, bool present) {
    if (!present) return types_.arena().void_type();
    Dwarf_Off key = dwarf_dieoffset(die);
    if (auto it = built_.find(key); it != built_.end()) return it->second;
    Dwarf_Die target;
    bool has_target = referenced(die, DW_AT_type, &target);
    switch (dwarf_tag(die)) {
      case DW_TAG_base_type: return remember(key, base(die));
      case DW_TAG_pointer_type:
      case DW_TAG_reference_type:
      case DW_TAG_rvalue_reference_type: {
        // A placeholder first: the pointee may lead back here.
        ctypes::CType& p = types_.arena().make(ctypes::CKind::Pointer);
        p.size = types_.model().pointer.size;
        built_[key] = &p;
        p.target = build(&target, has_target);
        return &p;
      }
      case DW_TAG_const_type:
      case DW_TAG_volatile_type:
      case DW_TAG_restrict_type:
      case DW_TAG_atomic_type: return remember(key, build(&target, has_target));
      case DW_TAG_typedef: {
        ctypes::CType& t = types_.arena().make(ctypes::CKind::Typedef);
        t.name = name_of(die);
        built_[key] = &t;
        t.target = build(&target, has_target);
        return &t;
      }
      case DW_TAG_structure_type:
      case DW_TAG_class_type:
      case DW_TAG_union_type: return record(die, key);
      case DW_TAG_enumeration_type: return enumeration(die, key, has_target ? &target : nullptr);
      case DW_TAG_array_type: return remember(key, array(die, build(&target, has_target)));
      case DW_TAG_subroutine_type: {
        ctypes::CType& f = types_.arena().make(ctypes::CKind::Function);
        built_[key] = &f;
        f.target = build(&target, has_target);
        return &f;
      }
      default: return remember(key, types_.arena().void_type());
    }
  }

 private:
  ctypes::CTypeRef remember(Dwarf_Off key, ctypes::CTypeRef t) { return built_[key] = t; }

  ctypes::CTypeRef base(Dwarf_Die* die) {
    uint32_t size = static_cast<uint32_t>(udata(die, DW_AT_byte_size));
    uint64_t enc = udata(die, DW_AT_encoding);
    if (enc == DW_ATE_float || enc == DW_ATE_complex_float) {
      ctypes::CType& f = types_.arena().make(ctypes::CKind::Float);
      f.name = name_of(die);
      f.size = size;
      return &f;
    }
    bool is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
    return types_.arena().integer(name_of(die), size, is_signed);
  }

  ctypes::CTypeRef record(Dwarf_Die* die, Dwarf_Off key) {
    bool is_union = dwarf_tag(die) == DW_TAG_union_type;
    if (dwarf_hasattr(die, DW_AT_declaration)) {
      ctypes::CType& fwd = types_.arena().make(ctypes::CKind::Forward);
      fwd.name = name_of(die);
      fwd.tag_kind = is_union ? ctypes::CKind::Union : ctypes::CKind::Struct;
      return remember(key, &fwd);
    }
    ctypes::CType& r = types_.arena().make(is_union ? ctypes::CKind::Union : ctypes::CKind::Struct);
    r.name = name_of(die);
    r.size = static_cast<uint32_t>(udata(die, DW_AT_byte_size));
    built_[key] = &r;
    Dwarf_Die m;
    if (dwarf_child(die, &m) != 0) return &r;
    do {
      if (dwarf_tag(&m) != DW_TAG_member) continue;
      Dwarf_Die mt;
      bool has_mt = referenced(&m, DW_AT_type, &mt);
      ctypes::CMember member{name_of(&m), build(&mt, has_mt), 0, 0};
      member.bit_offset = static_cast<uint32_t>(8 * udata(&m, DW_AT_data_member_location));
      if (dwarf_hasattr(&m, DW_AT_data_bit_offset)) member.bit_offset = static_cast<uint32_t>(udata(&m, DW_AT_data_bit_offset));
      member.bit_size = static_cast<uint32_t>(udata(&m, DW_AT_bit_size));
      r.members.push_back(std::move(member));
    } while (dwarf_siblingof(&m, &m) == 0);
    return &r;
  }

  ctypes::CTypeRef enumeration(Dwarf_Die* die, Dwarf_Off key, Dwarf_Die* underlying) {
    ctypes::CType& e = types_.arena().make(ctypes::CKind::Enum);
    e.name = name_of(die);
    e.size = static_cast<uint32_t>(udata(die, DW_AT_byte_size, 4));
    if (underlying) {
      ctypes::CTypeRef u = ctypes::strip_typedefs(build(underlying, true));
      e.is_signed = u && u->is_signed;
    }
    Dwarf_Die c;
    if (dwarf_child(die, &c) == 0) do {
        if (dwarf_tag(&c) != DW_TAG_enumerator) continue;
        Dwarf_Attribute a;
        Dwarf_Sword v = 0;
        if (dwarf_attr(&c, DW_AT_const_value, &a)) dwarf_formsdata(&a, &v);
        e.enumerators.push_back({name_of(&c), v});
      } while (dwarf_siblingof(&c, &c) == 0);
    return remember(key, &e);
  }

  // int a[2][3] is an array of 2 arrays of 3: dimensions nest from the last inwards.
  ctypes::CTypeRef array(Dwarf_Die* die, ctypes::CTypeRef element) {
    std::vector<uint32_t> dims;
    Dwarf_Die sub;
    if (dwarf_child(die, &sub) == 0) do {
        if (dwarf_tag(&sub) == DW_TAG_subrange_type) dims.push_back(dimension(&sub));
      } while (dwarf_siblingof(&sub, &sub) == 0);
    ctypes::CTypeRef t = element;
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) t = types_.arena().array_of(t, *it);
    return t;
  }

  ctypes::ScriptTypes& types_;
  std::map<Dwarf_Off, ctypes::CTypeRef> built_;
};

bool names_function(Dwarf_Die* die, std::string_view function) {
  if (name_of(die) == function) return true;
  Dwarf_Attribute a;
  const char* linkage = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
  return linkage && function == linkage;
}

// The subprogram DIE of `function`: one with code (low_pc) first, else any definition.
bool find_subprogram(Dwarf* dw, std::string_view function, Dwarf_Die* out) {
  bool found_any = false;
  Dwarf_Off off = 0, next;
  size_t header;
  while (dwarf_nextcu(dw, off, &next, &header, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu, child;
    if (dwarf_offdie(dw, off + header, &cu) && dwarf_child(&cu, &child) == 0) do {
        if (dwarf_tag(&child) != DW_TAG_subprogram || dwarf_hasattr(&child, DW_AT_declaration) ||
            !names_function(&child, function))
          continue;
        bool has_code = dwarf_hasattr(&child, DW_AT_low_pc);
        if (!found_any || has_code) *out = child;
        found_any = true;
        if (has_code) return true;
      } while (dwarf_siblingof(&child, &child) == 0);
    off = next;
  }
  return found_any;
}

}  // namespace

std::string no_debuginfo_message(const std::string& path) { return "No debuginfo found for " + path; }

namespace {

Error no_dwarf_error(const std::string& path) {
  return make_error(no_debuginfo_message(path), {},
                    "the file has no DWARF (.debug_info): build it with -g to name parameters as args->NAME, "
                    "or read them as arg0, arg1, ...");
}

std::vector<FunctionParam> params_of(Dwarf_Die* sub, TypeBuilder* builder) {
  std::vector<FunctionParam> params;
  Dwarf_Die p;
  if (dwarf_child(sub, &p) != 0) return params;
  do {
    if (dwarf_tag(&p) != DW_TAG_formal_parameter) continue;
    Dwarf_Die t;
    bool has_type = referenced(&p, DW_AT_type, &t);
    FunctionParam param{name_of(&p), spelling(&t, has_type), nullptr};
    if (builder) param.type = builder->build(&t, has_type);
    params.push_back(std::move(param));
  } while (dwarf_siblingof(&p, &p) == 0);
  return params;
}

}  // namespace

Result<std::vector<FunctionParam>> function_params(const std::string& path, std::string_view function,
                                                   ctypes::ScriptTypes* types) {
  DwarfFile file(path);
  if (file.fd() < 0) return syscall_error("read the DWARF of", "open", errno, path);
  if (!file.get()) return no_dwarf_error(path);
  Dwarf_Die sub;
  if (!find_subprogram(file.get(), function, &sub))
    return make_error("the DWARF of " + path + " does not describe function " + std::string(function), {},
                      "its compilation unit was built without -g; read the parameters as arg0, arg1, ...");
  std::optional<TypeBuilder> builder;
  if (types) builder.emplace(*types);
  return params_of(&sub, builder ? &*builder : nullptr);
}

Result<std::map<std::string, std::vector<FunctionParam>, std::less<>>> all_function_params(const std::string& path) {
  DwarfFile file(path);
  if (file.fd() < 0) return syscall_error("read the DWARF of", "open", errno, path);
  if (!file.get()) return no_dwarf_error(path);
  std::map<std::string, std::vector<FunctionParam>, std::less<>> out;
  Dwarf_Off off = 0, next;
  size_t header;
  while (dwarf_nextcu(file.get(), off, &next, &header, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu, child;
    if (dwarf_offdie(file.get(), off + header, &cu) && dwarf_child(&cu, &child) == 0) do {
        if (dwarf_tag(&child) != DW_TAG_subprogram || dwarf_hasattr(&child, DW_AT_declaration)) continue;
        std::string name = name_of(&child);
        // The definition with code wins over an abstract (inlined-only) one.
        if (name.empty() || (out.count(name) && !dwarf_hasattr(&child, DW_AT_low_pc))) continue;
        out[name] = params_of(&child, nullptr);
      } while (dwarf_siblingof(&child, &child) == 0);
    off = next;
  }
  return out;
}

}  // namespace rawprobe::dwarf
