// Functions of bpftrace 0.26.1 whose answer is known when the script is checked, so the call
// becomes a literal (docs/stdlib.md):
//   default_str_length()   max_strlen, the size of a str() read without a length (0.26.1's
//                          src/stdlib/strings.bt: sizeof(str((int8 *)0)))
//   kfunc_exist("name")    whether the kernel's BTF has a function of that name, a bool
//   kfunc_allowed("name")  whether the verifier lets this block's programs call that kfunc,
//                          asked by loading a small program of their type (sys/kfunc_probe.h)
#include <set>

#include "engine/lang/semantic_internal.h"
#include "engine/probes/btf_functions.h"
#include "engine/sys/kfunc_probe.h"

namespace rawprobe::lang {

std::optional<bool> Checker::kfunc_allowed_here(const Expr& e, uint32_t btf_id) {
  std::set<probes::ProgramType> types;
  for (const ProbeSpec& s : probe_->specs) types.insert(probes::program_type(s.kind));
  for (probes::ProgramType t : types) {
    if (t == probes::ProgramType::Tracing) {
      error(e.span, "kfunc_allowed() cannot ask for fentry, fexit and iter probes, whose test program would need "
                    "a function to attach to; ask in another probe type, or call the kfunc and let the verifier say");
      return std::nullopt;
    }
    Result<bool> allowed = sys::kfunc_allowed(probes::kernel_prog_type(t), btf_id);
    if (!allowed) {
      error(e.span, "kfunc_allowed() asks the verifier with a test program, which could not be loaded: " +
                        allowed.error().message());
      return std::nullopt;
    }
    if (!*allowed) return false;
  }
  return true;
}

void Checker::call_constant(Expr& e) {
  if (!arg_count(e)) return;
  bool is_bool = e.function != FunctionId::DefaultStrLength;
  uint64_t value = opts_.strlen;
  if (is_bool) {
    const Expr& name = *e.operands[0];
    if (!name.is_literal_string())
      return error(name.span, e.name + "() takes the kfunc's name as a string literal");
    uint32_t id = probes::vmlinux_function_id(name.str.c_str());
    value = id != 0;
    if (id && e.function == FunctionId::KfuncAllowed) {
      std::optional<bool> allowed = kfunc_allowed_here(e, id);
      if (!allowed) return;
      value = *allowed;
    }
  }
  e.kind = ExprKind::Integer;
  e.int_value = value;
  e.name = is_bool ? (value ? "true" : "false") : "";
  e.operands.clear();
  check(e, Use::Value);
}

}  // namespace rawprobe::lang
