// Typed contexts from the kernel's BTF, as bpftrace reads them:
//   fentry/fexit  args.NAME (or args->NAME): the parameter NAME of the function's prototype,
//                 with its C type, so `args.file->f_pos` needs no cast; retval in fexit has
//                 the function's return type
//   rawtracepoint args.NAME: the tracepoint's TP_PROTO argument (btf_trace_NAME); arg0.. stay
//   iter          ctx: the iterator's `struct bpf_iter__NAME *` (ctx->task, ctx->file, ...)
// Every function (tracepoint) a block attaches to must give the parameter one type: the block's code has
// one type per expression (each function still gets its own program).
#include "engine/ctypes/ctype.h"
#include "engine/lang/preprocess.h"
#include "engine/lang/semantic_internal.h"
#include "engine/lang/suggest.h"
#include "engine/probes/btf_functions.h"
#include "engine/probes/probe_types.h"

namespace rawprobe::lang {

void Checker::btf_arg(Expr& e) {
  note_builtin(BuiltinId::Args);
  info_.uses_args = true;
  bool found_any = false;
  std::string spelled;
  for (const ProbeSpec& spec : probe_->specs) {
    Result<std::vector<probes::TypedArguments>> matches = probes::typed_arguments(spec);
    if (!matches) {
      error(spec.span, diagnostic_message(matches.error(), {spec.raw, spec.canonical()}));
      return;
    }
    const char* what = spec.kind == ProbeKind::RawTracepoint ? "raw tracepoint " : "kernel function ";
    for (const probes::TypedArguments& f : *matches) {
      const ctypes::CParam* param = nullptr;
      std::vector<std::string> names;
      for (const ctypes::CParam& p : f.params) {
        names.push_back(p.name);
        if (p.name == e.name) param = &p;
      }
      if (!param) {
        std::string list;
        for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
        error(e.span, what + f.owner + " has no parameter '" + e.name + "' (its parameters: " +
                          (list.empty() ? "none" : list) + ")" + did_you_mean(e.name, names));
        return;
      }
      std::string here = ctypes::spell(param->type);
      if (found_any && here != spelled) {
        error(e.span, "args." + e.name + " is a '" + here + "' in " + f.owner + " but a '" + spelled +
                          "' in another probe of this block; split them into separate probe blocks");
        return;
      }
      if (!found_any) {
        Type t = c_value(param->type, false, e.span);
        if (t.kind == TypeKind::Record || t.kind == TypeKind::Array) {
          error(e.span, "args." + e.name + " is a '" + here + "' passed by value, which rawprobe cannot read yet; "
                            "read its members in the caller, or through a pointer parameter");
          return;
        }
        e.type = t;
      }
      found_any = true;
      spelled = here;
    }
  }
}

Type Checker::btf_retval(Span where) {
  std::string spelled;
  Type type = Type::integer(8, false);
  bool found_any = false;
  for (const ProbeSpec& spec : probe_->specs) {
    Result<std::vector<probes::TypedArguments>> matches = probes::typed_arguments(spec);
    if (!matches) {
      error(spec.span, diagnostic_message(matches.error(), {spec.raw, spec.canonical()}));
      return type;
    }
    for (const probes::TypedArguments& f : *matches) {
      ctypes::CTypeRef bare = ctypes::strip_typedefs(f.ret);
      if (!bare || bare->kind == ctypes::CKind::Void) {
        error(where, "kernel function " + f.owner + " returns void: fexit has no retval there");
        return type;
      }
      std::string here = ctypes::spell(f.ret);
      if (found_any && here != spelled) {
        error(where, "retval is a '" + here + "' in " + f.owner + " but a '" + spelled +
                         "' in another function of this block; split them into separate probe blocks");
        return type;
      }
      if (!found_any) type = c_value(f.ret, false, where);
      found_any = true;
      spelled = here;
    }
  }
  return type;
}

void Checker::iter_ctx(Expr& e) {
  e.builtin = BuiltinId::Ctx;
  const ProbeSpec& spec = probe_->specs.front();
  for (const ProbeSpec& s : probe_->specs)
    if (s.name != spec.name) {
      error(e.span, "ctx has a different type in iter:" + s.name + " and iter:" + spec.name +
                        "; give each iterator its own probe block");
      return;
    }
  ctypes::CTypeRef record = c_types().find(ctypes::CKind::Struct, "bpf_iter__" + spec.name);
  if (!record) {
    if (!kernel_has_btf())
      error(e.span, "ctx of iter:" + spec.name + " is a struct bpf_iter__" + spec.name +
                        " *, a type of the kernel's BTF, and this kernel has none (no /sys/kernel/btf/vmlinux): "
                        "iterators need a kernel built with CONFIG_DEBUG_INFO_BTF (Linux 5.8 or later)");
    else
      error(e.span, "the kernel's BTF has no struct bpf_iter__" + spec.name + " to type ctx with");
    return;
  }
  e.type = c_value(c_types().pointer_to(record), false, e.span);
  note_builtin(BuiltinId::Ctx);
}

}  // namespace rawprobe::lang
