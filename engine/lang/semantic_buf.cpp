// buf(p, n) and buf(string[, n]): n bytes (at most BPFTRACE_STRLEN's), kept with their count,
// { u8 length; u8 data[N] }, printed by printf's %r (printable bytes as they are, the others
// \xNN) and %rx (every byte \xNN), and as %r in maps and print(). bpftrace 0.17's messages.
#include "engine/base/text_kinds.h"
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::call_buf(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  for (ExprPtr& a : e.operands)
    if (a->type.kind == TypeKind::None) return;
  const Expr& data = *e.operands[0];
  // A pointer (a typed tracepoint field such as args->filename) is its address.
  if (!data.type.is_integer() && !data.type.is_pointer() && !data.type.is_string()) {
    error(e.span, "buf() expects an integer or string as its first argument (" + type_name(data.type) + " provided)");
    return;
  }
  if (e.operands.size() == 1) {
    if (data.type.is_string()) {
      error(e.span, "buf() expects a length argument for non-array type string");
      return;
    }
    error(e.span, "buf() expects a length argument for non-array type " + type_name(data.type));
    return;
  }
  const Expr& length = *e.operands[1];
  if (!length.type.is_integer()) {
    error(e.span, "buf() only supports integer lengths (" + argument_type_name(length.type) + " provided)");
    return;
  }
  // A literal length sizes the buffer; a computed one is cut to the maximum at run time.
  uint32_t bytes = opts_.strlen;
  if (length.kind == ExprKind::Integer && length.int_value < bytes) bytes = static_cast<uint32_t>(length.int_value);
  if (data.type.is_string()) bytes = std::min(bytes, data.type.size);
  bytes = std::min<uint32_t>(bytes, 255);  // the length byte
  e.type = Type{TypeKind::Buffer, 1 + bytes, false, {}};
}

bool Checker::buffer_conversions(const Expr& call, const PrintfFormat& format, std::vector<Type>& stored) {
  for (size_t i = 0; i < stored.size() && i < format.arg_count(); ++i) {
    const ConvSpec& spec = format.pieces()[i].spec;
    if (spec.conv != 'r') continue;
    if (!is_buffer(stored[i].kind)) {
      error(call.span, "printf: %" + spec.token + " specifier expects a value of type buffer (" +
                           argument_type_name(stored[i]) + " supplied)");
      return false;
    }
    if (spec.token == "rx") stored[i].kind = TypeKind::BufferHex;
  }
  return true;
}

}  // namespace rawprobe::lang
