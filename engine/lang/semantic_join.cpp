// join(argv[, sep]): prints the strings of an array of string pointers (an execve argv), up
// to the first null or empty one, with `sep` (default " ") between them, as bpftrace 0.17.
// Its record is a PrintfInfo whose format is the separator (program_info.h).
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::call_join(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  for (ExprPtr& a : e.operands)
    if (a->type.kind == TypeKind::None) return;
  const Expr& array = *e.operands[0];
  // A pointer (execve's `const char *const *argv`, typed from the tracepoint) is its address.
  if (!array.type.is_integer() && !array.type.is_pointer()) {
    error(e.span, "join() only supports integer arguments (" + argument_type_name(array.type) + " provided)");
    return;
  }
  std::string separator = " ";
  if (e.operands.size() == 2) {
    const Expr& sep = *e.operands[1];
    if (!sep.is_literal_string()) {
      error(e.span, "join() expects a string literal (" + argument_type_name(sep.type) + " provided)");
      return;
    }
    separator = sep.str;
  }
  e.call_id = static_cast<int>(info_.printfs.size());
  info_.printfs.push_back(PrintfInfo{separator, {}, kEventHeaderSize + kJoinArgs * kJoinArgBytes, e.span, e.function});
}

}  // namespace rawprobe::lang
