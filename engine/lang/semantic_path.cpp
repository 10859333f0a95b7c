// path(p) and path(p, size): the file name of a `struct path`, by the kernel's bpf_d_path
// helper (Linux 5.10). The verifier hands that helper only a pointer it can type from BTF
// (PTR_TO_BTF_ID of struct path, or of a struct holding one at that offset, &file->f_path),
// and allows the call only in iterators and in fentry/fexit on the functions of its
// btf_allowlist_d_path (kernel/trace/bpf_trace.c). So the argument must be read straight from
// the BTF-typed context, as codegen does for this chain alone (gen_path.cpp):
//   iter     ctx->file->f_path, ctx->task->mm->exe_file->f_path, ...
//   fentry   args.path, args.file->f_path, *args.path
//   fexit    the same, and retval->f_path
// A pointer held in a variable, cast from an integer, or read in a kprobe or uprobe has lost
// that type, and is refused here rather than by the verifier.
#include "engine/base/type_names.h"
#include "engine/ctypes/ctype.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {
namespace {

constexpr const char* kWhere = "path() works in fentry, fexit and iter probes";
constexpr uint32_t kMaxPathSize = 4096;  // PATH_MAX

bool is_btf_context(ProbeKind k) { return k == ProbeKind::Fentry || k == ProbeKind::Fexit || k == ProbeKind::Iter; }

bool is_struct_path(ctypes::CTypeRef t) {
  t = ctypes::strip_typedefs(t);
  return t && t->kind == ctypes::CKind::Struct && t->name == "path";
}

// The pointee of a pointer type, or null.
ctypes::CTypeRef pointee(const Type& t) {
  if (!t.is_pointer() || !t.ctype) return nullptr;
  ctypes::CTypeRef p = ctypes::strip_typedefs(t.ctype);
  return p && p->kind == ctypes::CKind::Pointer ? p->target : nullptr;
}

// The first part of `e` that is not read straight from the BTF-typed context, or null when
// the whole chain is.
const Expr* untrusted_part(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Builtin:
      return e.builtin == BuiltinId::Ctx || e.builtin == BuiltinId::Retval ? nullptr : &e;
    case ExprKind::Field: {
      const Expr& base = *e.operands[0];
      if (base.kind == ExprKind::Builtin && base.name == "args") return nullptr;  // args.NAME: a context slot
      if (e.bit_width || !(e.type.is_pointer() || e.type.kind == TypeKind::Record)) return &e;
      return untrusted_part(base);
    }
    case ExprKind::Deref:
      return e.type.kind == TypeKind::Record ? untrusted_part(*e.operands[0]) : &e;
    default: return &e;
  }
}

}  // namespace

void Checker::call_path(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  Expr& p = *e.operands[0];
  if (p.type.kind == TypeKind::None) return;
  uint32_t size = opts_.strlen;
  if (e.operands.size() == 2) {
    const Expr& n = *e.operands[1];
    if (n.kind != ExprKind::Integer || n.int_value <= 0 || n.int_value > kMaxPathSize) {
      error(n.span, "path()'s size must be an integer literal from 1 to " + std::to_string(kMaxPathSize) +
                        " (PATH_MAX), the bytes kept of the path with its NUL");
      return;
    }
    size = static_cast<uint32_t>(n.int_value);
  }
  bool by_pointer = is_struct_path(pointee(p.type));
  if (!by_pointer && !(p.type.kind == TypeKind::Record && is_struct_path(p.type.ctype))) {
    error(p.span, "path() expects a 'struct path *' or a 'struct path' (" + argument_type_name(p.type) +
                      " provided): pass a file's f_path, e.g. path(args.file->f_path)");
    return;
  }
  if (!all_specs(is_btf_context)) {
    error(e.span, std::string(kWhere) + ", where the kernel's BTF types the context; not in " + probe_kinds_text() +
                      " probes, whose pointers the verifier cannot type for bpf_d_path");
    return;
  }
  if (const Expr* bad = untrusted_part(p)) {
    const char* why = bad->kind == ExprKind::Variable ? "a variable keeps the pointer as a plain number"
                      : bad->kind == ExprKind::Cast   ? "a cast makes a plain number of it"
                                                      : "this part is read with bpf_probe_read, which gives a plain number";
    error(bad->span, std::string("path() needs a pointer the verifier types from BTF, read straight from the probe's "
                                 "context (args.NAME, retval, ctx, and -> or . from them, e.g. "
                                 "path(args.file->f_path)): ") + why);
    return;
  }
  e.type = Type::string(size);
}

}  // namespace rawprobe::lang
