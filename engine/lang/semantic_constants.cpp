// Functions of bpftrace 0.26.1 whose answer is known when the script is checked, so the call
// becomes a literal (docs/stdlib.md):
//   default_str_length()   max_strlen, the size of a str() read without a length (0.26.1's
//                          src/stdlib/strings.bt: sizeof(str((int8 *)0)))
//   kfunc_exist("name")    whether the kernel's BTF has a function of that name, a bool
#include "engine/lang/semantic_internal.h"
#include "engine/probes/btf_functions.h"

namespace rawprobe::lang {

void Checker::call_constant(Expr& e) {
  if (!arg_count(e)) return;
  bool is_bool = e.function == FunctionId::KfuncExist;
  uint64_t value = opts_.strlen;
  if (is_bool) {
    const Expr& name = *e.operands[0];
    if (!name.is_literal_string()) return error(name.span, "kfunc_exist() takes the kfunc's name as a string literal");
    value = probes::vmlinux_function_id(name.str.c_str()) != 0;
  }
  e.kind = ExprKind::Integer;
  e.int_value = value;
  e.name = is_bool ? (value ? "true" : "false") : "";
  e.operands.clear();
  check(e, Use::Value);
}

}  // namespace rawprobe::lang
