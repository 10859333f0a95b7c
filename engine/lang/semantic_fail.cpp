// fail(fmt, args...), bpftrace 0.26.1 (docs/stdlib.md): a static assertion that always fails
// where it is reached. Its message is formatted as printf would, so every argument must be a
// literal, and it stops the script when it is checked, as a compile error at the call. A call
// in a branch that a condition known when the script is checked leaves out is not reached:
// `if ($1 < 2) { fail("...%d", $1); }` stops a run given 1 and lets one given 5 go on, as
// bpftrace's pruning of such branches does.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::if_branches(Stmt& s) {
  condition(*s.expr, "if condition");
  std::optional<int64_t> known = constant_of(*s.expr);
  auto branch = [&](std::vector<StmtPtr>& body, bool left_out) {
    unvisited_depth_ += left_out;
    block(body);
    unvisited_depth_ -= left_out;
  };
  branch(s.body, known && *known == 0);
  branch(s.else_body, known && *known != 0);
}

void Checker::call_fail(Expr& e) {
  if (!arg_count(e)) return;
  Expr& fmt = *e.operands[0];
  if (!fmt.is_literal_string()) return error(fmt.span, "fail()'s format must be a string literal");
  Result<PrintfFormat> format = PrintfFormat::parse(fmt.str);
  if (!format) return error(fmt.span, "fail(): " + format.error().what);
  size_t given = e.operands.size() - 1;
  if (given != format->arg_count())
    return error(e.span, "fail(): the format takes " + std::to_string(format->arg_count()) + " argument(s), " +
                             std::to_string(given) + " given");
  std::string message;
  for (size_t i = 0; i < given; ++i) {
    Expr& a = *e.operands[i + 1];
    check(a, Use::Value);
    if (a.type.kind == TypeKind::None) return;
    const FormatPiece& piece = format->pieces()[i];
    message += piece.literal;
    bool text = format->arg_class(i) == ArgClass::String;
    std::optional<int64_t> number = a.type.is_integer() ? constant_of(a) : std::nullopt;
    if (a.is_literal_string() && text) {
      if (piece.prints_arg) append_conversion(message, piece.spec, a.str);
    } else if (number && !text) {
      if (piece.prints_arg) append_conversion(message, piece.spec, static_cast<uint64_t>(*number));
    } else {
      bool right_kind = text ? a.type.is_string() : a.type.is_integer();
      return error(a.span, std::string("fail()'s arguments are formatted when the script is checked, so each must be ") +
                               (text ? "a string literal" : "an integer literal") + " for its %" + piece.spec.token +
                               (right_kind ? "; this one is known only when the probe runs"
                                           : " (" + argument_type_name(a.type) + " given)"));
    }
  }
  message += format->tail();
  if (unvisited_depth_ == 0) error(e.span, message);
}

}  // namespace rawprobe::lang
