// C types in expressions: casts to C types, `*p`, `p->f`, `r.f`, `p[i]`, `sizeof`,
// `offsetof`, with bpftrace 0.17's typing (checked against it by running both):
//   - an int/enum member reads as an integer of its size and sign; char[N] as a string;
//     a pointer as a pointer; a struct, union or other array stays in memory until stored
//   - a bit-field reads as an unsigned integer of its declared size: bpftrace 0.17 masks
//     it without sign extension (a 5-bit -7 reads 25)
//   - pointer +/- integer moves by whole elements; the memory's address space (user or
//     kernel) is the probe type's
#include <optional>

#include "engine/base/type_names.h"
#include "engine/ctypes/decl_parser.h"
#include "engine/lang/preprocess.h"
#include "engine/lang/semantic_internal.h"
#include "engine/lang/suggest.h"
#include "engine/probes/probe_types.h"

namespace rawprobe::lang {

using ctypes::CKind;
using ctypes::CTypeRef;

namespace {

const char* tag_text(CKind tag) {
  switch (tag) {
    case CKind::Struct: return "struct ";
    case CKind::Union: return "union ";
    case CKind::Enum: return "enum ";
    default: return "";
  }
}

std::vector<std::string> member_names(CTypeRef record) {
  std::vector<std::string> names;
  record = ctypes::strip_typedefs(record);
  if (!record) return names;
  for (const ctypes::CMember& m : record->members) {
    if (!m.name.empty()) names.push_back(m.name);
    else
      for (std::string& inner : member_names(m.type)) names.push_back(std::move(inner));
  }
  return names;
}

// A struct or array value whose members code generation can address: one in traced memory
// (*p, p->f, p[i]), copied into a variable, or an array a call makes (pton(), written to the
// stack first); not one in a map.
bool addressable(const Expr& e) {
  return e.kind == ExprKind::Variable || e.kind == ExprKind::Deref || e.kind == ExprKind::Field ||
         e.kind == ExprKind::Index || (e.kind == ExprKind::Call && e.type.kind == TypeKind::Array);
}

// A literal index, as bpftrace 0.17 bounds it: `a[4]` and `a[-1]` of an int[4] are refused.
std::optional<int64_t> literal_index(const Expr& idx) {
  if (idx.kind == ExprKind::Integer) return static_cast<int64_t>(idx.int_value);
  if (idx.kind == ExprKind::Unary && idx.op == Op::Neg && idx.operands[0]->kind == ExprKind::Integer)
    return -static_cast<int64_t>(idx.operands[0]->int_value);
  return std::nullopt;
}

}  // namespace

ctypes::ScriptTypes& Checker::c_types() {
  ctypes::ScriptTypes& types = *prog_.c_types;
  if (opts_.kernel_types && !types.fallback()) types.set_fallback(opts_.kernel_types);
  return types;
}

bool Checker::user_memory() const {
  return probe_ && !probe_->specs.empty() && probes::probe_type(probe_->specs.front().kind).context.user_space;
}

Type Checker::c_value(CTypeRef type, bool user, Span where) {
  CTypeRef t = ctypes::strip_typedefs(type);
  std::string spelled = ctypes::spell(type);
  if (!t) {
    error(where, "type '" + spelled + "' is unknown");
    return {};
  }
  switch (t->kind) {
    case CKind::Int:
    case CKind::Enum:
      if (t->size == 1 || t->size == 2 || t->size == 4 || t->size == 8) return Type::integer(t->size, t->is_signed);
      error(where, "'" + spelled + "' is a " + std::to_string(t->size) + "-byte integer; only 1, 2, 4 and 8 bytes can be read");
      return {};
    case CKind::Pointer: {
      Type p = Type{TypeKind::Pointer, 8, false, {}};
      p.ctype = type;
      p.c_name = spelled;
      p.user_memory = user;
      return p;
    }
    case CKind::Array: {
      CTypeRef elem = ctypes::strip_typedefs(t->target);
      // bpftrace reads char[N] as a string; signed and unsigned char[N] stay arrays.
      if (ctypes::is_plain_char(elem)) return Type::string(t->count);
      [[fallthrough]];
    }
    case CKind::Struct:
    case CKind::Union: {
      Type r = Type{t->kind == CKind::Array ? TypeKind::Array : TypeKind::Record, t->size, false, {}};
      r.ctype = type;
      r.c_name = spelled;
      r.user_memory = user;
      return r;
    }
    case CKind::Float: error(where, "'" + spelled + "' is a floating-point type, which the language cannot read"); return {};
    case CKind::Forward:
      error(where, "'" + spelled + "' is declared but not defined: define it before the probes (or load kernel BTF that has it)");
      return {};
    default: error(where, "a value of type '" + spelled + "' cannot be read"); return {};
  }
}

CTypeRef Checker::resolve_type(const TypeName& name) {
  ctypes::ScriptTypes& types = c_types();
  CTypeRef t = types.find(name.tag, name.name);
  if (!t) {
    std::string written = std::string(tag_text(name.tag)) + name.name;
    // Where the kernel publishes no BTF, the kernel's types cannot be what is missing: say so.
    const std::string no_btf = kernel_has_btf() ? ""
                                                : " (this kernel has no BTF, where kernel types come from: it was built "
                                                  "without CONFIG_DEBUG_INFO_BTF=y)";
    if (name.tag == CKind::Typedef) {
      error(name.span, "Unknown type: '" + written + "': neither the script nor kernel BTF defines it" + no_btf +
                           did_you_mean(name.name, types.own_names(CKind::Typedef)));
    } else {
      const char* what = name.tag == CKind::Enum ? "enum" : "struct/union";
      error(name.span, std::string("Unknown ") + what + ": '" + written + "': define it before the probes" +
                           (no_btf.empty() ? " (or run where kernel BTF has it)" : no_btf) +
                           did_you_mean(name.name, types.own_names(name.tag)));
    }
    return nullptr;
  }
  for (uint32_t i = 0; i < name.pointers; ++i) t = types.pointer_to(t);
  return t;
}

void Checker::cast_to_c(Expr& e) {
  Expr& x = *e.operands[0];
  check(x, Use::Value);
  CTypeRef target = resolve_type(e.type_name);
  if (!target || x.type.kind == TypeKind::None) return;
  if (!x.type.is_scalar()) {
    error(e.span, "Cannot cast from '" + type_name(x.type) + "' to '" + ctypes::spell(target) + "'");
    return;
  }
  if (ctypes::strip_typedefs(target)->kind != CKind::Pointer) {
    error(e.span, "Cannot cast to '" + ctypes::spell(target) + "': cast to a pointer to it instead, e.g. (" +
                      ctypes::spell(target) + " *)");
    return;
  }
  // A pointer cast to another pointer keeps the memory it points into; an integer that
  // uptr() or kptr() marked points into the space it names, any other into the probe's.
  bool user = x.type.is_pointer() ? x.type.user_memory : user_memory();
  if (x.kind == ExprKind::Call && (x.function == FunctionId::Uptr || x.function == FunctionId::Kptr))
    user = x.function == FunctionId::Uptr;
  e.type = c_value(target, user, e.span);
}

void Checker::deref(Expr& e) {
  Expr& x = *e.operands[0];
  check(x, Use::Value);
  if (x.type.kind == TypeKind::None) return;
  if (x.type.is_integer()) {
    // bpftrace 0.17 reads 8 bytes at an integer address.
    e.type = Type::integer(8, true);
    return;
  }
  if (!x.type.is_pointer()) {
    error(e.span, x.type.kind == TypeKind::Record
                      ? "Can not dereference struct/union of type '" + type_name(x.type) + "'. It is not a pointer."
                      : "Can not dereference type '" + type_name(x.type) + "': it is not a pointer");
    return;
  }
  CTypeRef pointee = ctypes::strip_typedefs(x.type.ctype)->target;
  if (ctypes::strip_typedefs(pointee) && ctypes::strip_typedefs(pointee)->kind == CKind::Void) {
    error(e.span, "Can not dereference a '" + type_name(x.type) + "': cast it to a pointer of the type it points to");
    return;
  }
  e.type = c_value(pointee, x.type.user_memory, e.span);
}

void Checker::index(Expr& e) {
  Expr& base = *e.operands[0];
  Expr& idx = *e.operands[1];
  if (base.kind == ExprKind::Builtin && base.name == "args") {
    error(e.span, "The array index operator [] can only be used on arrays and pointers, found args");
    return;
  }
  check(base, Use::Value);
  check(idx, Use::Value);
  if (base.type.kind == TypeKind::None || idx.type.kind == TypeKind::None) return;
  if (base.type.is_string()) return string_index(e);  // semantic_strings.cpp
  if (!base.type.is_pointer() && base.type.kind != TypeKind::Array) {
    error(e.span, "The array index operator [] can only be used on arrays and pointers, found " +
                      (base.type.is_integer() ? std::string("integer") : type_name(base.type)) + ".");
    return;
  }
  if (base.type.kind == TypeKind::Array && !addressable(base)) {
    error(e.span, "Can not index this " + type_name(base.type) +
                      " value: read it from a pointer or a variable instead (keep the pointer in the map)");
    return;
  }
  if (!idx.type.is_integer()) {
    error(idx.span, "The array index must be an integer (" + type_name(idx.type) + " given)");
    return;
  }
  CTypeRef array = ctypes::strip_typedefs(base.type.ctype);
  std::optional<int64_t> at = literal_index(idx);
  if (base.type.kind == TypeKind::Array && array->count && at && (*at < 0 || *at >= int64_t{array->count})) {
    error(e.span, "the index " + std::to_string(*at) + " is out of bounds for array of size " +
                      std::to_string(array->count));  // bpftrace 0.17's words
    return;
  }
  CTypeRef elem = array->target;
  if (ctypes::size_of(elem) == 0) {
    error(e.span, "Can not index a '" + type_name(base.type) + "': its elements have no size");
    return;
  }
  e.scale = ctypes::size_of(elem);
  e.type = c_value(elem, base.type.user_memory, e.span);
}

// `p->f` and `r.f` on C records; tracepoint `args->f` is field().
void Checker::record_field(Expr& e) {
  Expr& base = *e.operands[0];
  if (base.type.kind == TypeKind::None || record_element(e)) return;
  CTypeRef record = nullptr;
  if (base.type.is_pointer()) {
    // bpftrace 0.17 refused `p.f` on a pointer; 0.22 on reads it as `p->f` ("If the `.` is
    // used on a pointer, it is automatically dereferenced"). Accepting it breaks no 0.17 script.
    record = ctypes::strip_typedefs(base.type.ctype)->target;
  } else if (base.type.kind == TypeKind::Record) {
    if (e.arrow) {  // bpftrace 0.17's words
      error(e.span, "Can not dereference struct/union of type '" + type_name(base.type) +
                        "'. It is not a pointer. Use '.' to read its field '" + e.name + "'");
      return;
    }
    record = base.type.ctype;
    if (!addressable(base)) {
      error(e.span, "Can not read field '" + e.name + "' of this " + type_name(base.type) +
                        " value: read it from a pointer or a variable instead (keep the pointer in the map)");
      return;
    }
  }
  if (!record || !ctypes::is_record(record)) {
    std::string why = base.type.is_pointer() ? ": it does not point to a struct or union" : "";
    // curtask is a struct task_struct * only where the kernel's BTF declares that struct.
    if (base.kind == ExprKind::Builtin && base.builtin == BuiltinId::Curtask && !base.type.is_pointer())
      why = ": curtask is a 'struct task_struct *' only where the kernel's BTF declares that struct, and this "
            "kernel has none (no /sys/kernel/btf/vmlinux: it was built without CONFIG_DEBUG_INFO_BTF=y); run on a "
            "kernel with BTF, or declare struct task_struct in the script and cast: "
            "((struct task_struct *)curtask)->" + e.name;
    error(e.span, "Can not access field '" + e.name + "' on type '" + type_name(base.type) + "'" + why);
    return;
  }
  std::optional<ctypes::CMember> m = ctypes::find_member(record, e.name);
  if (!m) {
    error(e.span, "Struct/union of type '" + ctypes::spell(record) + "' does not contain a field named '" + e.name +
                      "'" + did_you_mean(e.name, member_names(record)));
    return;
  }
  e.field_offset = m->bit_offset / 8;
  e.bit_shift = 0;
  e.bit_width = 0;
  Type t = c_value(m->type, base.type.user_memory, e.span);
  if (m->bit_size) {
    e.bit_shift = static_cast<uint8_t>(m->bit_offset % 8);
    e.bit_width = static_cast<uint8_t>(m->bit_size);
    t.is_signed = false;  // as bpftrace 0.17 reads it: masked, never sign-extended
  }
  e.type = t;
}

void Checker::size_of(Expr& e) {
  uint64_t size = 0;
  if (e.type_name.present()) {
    if (e.type_name.tag == CKind::Typedef && e.type_name.pointers == 0) {
      if (CTypeRef t = ctypes::standard_typedef(c_types(), e.type_name.name)) size = ctypes::size_of(t);
    }
    if (!size) {
      CTypeRef t = resolve_type(e.type_name);
      if (!t) return;
      size = ctypes::size_of(t);
    }
  } else {
    Expr& x = *e.operands[0];
    check(x, Use::Value);
    if (x.type.kind == TypeKind::None) return;
    size = x.type.kind == TypeKind::Tuple ? layout_of(x.type.fields).size : x.type.size;
  }
  e.int_value = size;
  e.type = Type::integer(8, false);
}

void Checker::offset_of(Expr& e) {
  CTypeRef record = resolve_type(e.type_name);
  if (!record) return;
  if (!ctypes::is_record(record)) {
    error(e.type_name.span, "offsetof needs a struct or union, not '" + ctypes::spell(record) + "'");
    return;
  }
  uint64_t bits = 0;
  CTypeRef at = record;
  size_t start = 0;
  while (start <= e.name.size()) {
    size_t dot = e.name.find('.', start);
    std::string part = e.name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    std::optional<ctypes::CMember> m = ctypes::is_record(at) ? ctypes::find_member(at, part) : std::nullopt;
    if (!m) {
      error(e.span, "Struct/union of type '" + ctypes::spell(at) + "' does not contain a field named '" + part + "'" +
                        did_you_mean(part, member_names(at)));
      return;
    }
    if (m->bit_size) {
      error(e.span, "offsetof cannot measure bit-field '" + part + "'");
      return;
    }
    bits += m->bit_offset;
    at = m->type;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  e.int_value = bits / 8;
  e.type = Type::integer(8, false);
}

}  // namespace rawprobe::lang
