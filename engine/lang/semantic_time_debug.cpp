// strftime(fmt, nsecs) and debugf(fmt, args...), with bpftrace 0.17's messages.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"
#include "engine/output/printf_format.h"

namespace rawprobe::lang {

// The format goes to ProgramInfo::time_formats, as time()'s does; the value is
// { u64 format; u64 nsecs }, formatted in user space (runtime/value_text.h).
void Checker::call_strftime(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  Expr& fmt = *e.operands[0];
  Expr& ns = *e.operands[1];
  if (fmt.type.kind == TypeKind::None || ns.type.kind == TypeKind::None) return;
  if (!fmt.is_literal_string()) {
    error(e.span, "strftime() expects a string literal (" + argument_type_name(fmt.type) + " provided)");
    return;
  }
  if (!ns.type.is_integer()) {
    error(e.span, "strftime() only supports integer arguments (" + argument_type_name(ns.type) + " provided)");
    return;
  }
  e.call_id = static_cast<int>(info_.time_formats.size());
  info_.time_formats.push_back(fmt.str);
  e.type = Type{TypeKind::Timestamp, 16, false, {}};
}

// debugf(fmt, ...): bpf_trace_printk, which takes at most three arguments; the format is
// checked as printf's, its messages prefixed "debugf:" as bpftrace's are.
void Checker::call_debugf(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  Expr& fmt = *e.operands[0];
  if (!fmt.is_literal_string()) {
    error(e.span, "debugf() expects a string literal (" + argument_type_name(fmt.type) + " provided)");
    return;
  }
  std::vector<Type> args;
  for (size_t i = 1; i < e.operands.size(); ++i) {
    const Type& t = e.operands[i]->type;
    if (t.kind == TypeKind::None) return;  // already reported
    if (!t.is_integer() && !t.is_string()) {
      error(e.operands[i]->span, "debugf() prints integers and strings only (" + type_name(t) + " provided)");
      return;
    }
    args.push_back(widen_integer(e.operands[i]->type));
  }
  Result<PrintfFormat> format = PrintfFormat::parse(fmt.str);
  if (!format) {
    error(fmt.span, format.error().what + "; " + format.error().hint);
    return;
  }
  if (format->arg_count() > 3) {
    error(e.span, "debugf: Cannot use more than 3 conversion specifiers");
    return;
  }
  Result<PrintfFormatter> formatter = PrintfFormatter::make(std::move(*format), args);
  if (!formatter) {
    std::string message = formatter.error().message();
    if (message.rfind("printf:", 0) == 0) message = "debugf:" + message.substr(7);
    error(e.span, message);
  }
}

}  // namespace rawprobe::lang
