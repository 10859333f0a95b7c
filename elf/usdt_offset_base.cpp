// Operands of the architectures whose memory syntax is "offset(register)": riscv64, s390x,
// ppc64le, mips64 and loongarch64. They differ in how a register is spelled and how a
// constant is marked:
//   riscv64      "8@a0"  "-4@-20(s0)"  "4@5"
//   s390x        "8@%r2"  "-4@160(%r15)"  "8@8(%r1,%r2)" (D(X,B): index X, base B)  "4@5"
//   ppc64le      "8@%r3" or "8@3" (a bare number is a register)  "-4@-20(%r31)" or
//                "-4@-20(31)"  "4@i5" (constants carry 'i')
//   mips64       "8@$4" or "8@$a0"  "-4@-20($fp)"  "4@5"
//   loongarch64  "8@$r4" or "8@$a0"  "-4@$r22,-20" (base,offset) or "-4@-20($r22)"  "4@5"
#include <cctype>

#include "elf/usdt_operand.h"

namespace rawprobe::elf::usdt {
namespace {

// The table's alias for a register as written in this architecture's operands.
std::string reg_alias(std::string_view text, const arch::OffsetBaseSyntax& syntax) {
  text = trim(text);
  if (syntax.percent_registers && !text.empty() && text[0] == '%') text.remove_prefix(1);
  if (syntax.numbered_registers && !text.empty() && isdigit(static_cast<unsigned char>(text[0])))
    return "r" + std::string(text);
  return std::string(text);
}

Status reg(std::string_view text, const arch::Table& table, UsdtReg& out) {
  if (trim(text).empty()) return make_error("missing register");
  return resolve_reg(reg_alias(text, table.offset_base), table, out);
}

}  // namespace

Status parse_offset_base(Operand op, const arch::Table& table, UsdtArg& arg) {
  const arch::OffsetBaseSyntax& syntax = table.offset_base;
  if (table.usdt_syntax != arch::UsdtSyntax::OffsetBase)
    return make_error("no USDT operand parser for " + std::string(table.name));

  if (size_t open = op.find('('); open != std::string_view::npos) {
    if (op.back() != ')') return make_error("expected ')' at the end of '" + std::string(op) + "'");
    std::string_view off = trim(op.substr(0, open));
    if (!off.empty()) {
      auto n = parse_int(off);
      if (!n) return make_error("bad offset '" + std::string(off) + "'");
      arg.offset = *n;
    }
    std::string_view inner = op.substr(open + 1, op.size() - open - 2);
    size_t comma = inner.find(',');
    if (comma == std::string_view::npos) {
      arg.kind = UsdtArgKind::Memory;
      return reg(inner, table, arg.base);
    }
    if (!syntax.index_base) return make_error("unexpected ',' in '" + std::string(op) + "'");
    arg.kind = UsdtArgKind::Indexed;
    if (Status st = reg(inner.substr(0, comma), table, arg.index); !st) return st;
    return reg(inner.substr(comma + 1), table, arg.base);
  }
  if (syntax.base_comma_offset) {
    if (size_t comma = op.find(','); comma != std::string_view::npos) {
      auto n = parse_int(op.substr(comma + 1));
      if (!n) return make_error("bad offset in '" + std::string(op) + "'");
      arg.kind = UsdtArgKind::Memory;
      arg.offset = *n;
      return reg(op.substr(0, comma), table, arg.base);
    }
  }
  if (syntax.numbered_registers && op[0] == 'i') {
    auto n = parse_int(op.substr(1));
    if (!n) return make_error("bad constant '" + std::string(op) + "'");
    arg.kind = UsdtArgKind::Constant;
    arg.constant = *n;
    return {};
  }
  if (!syntax.numbered_registers)
    if (auto n = parse_int(op)) {
      arg.kind = UsdtArgKind::Constant;
      arg.constant = *n;
      return {};
    }
  arg.kind = UsdtArgKind::Register;
  return reg(op, table, arg.base);
}

}  // namespace rawprobe::elf::usdt
