// aarch64 and arm (32-bit) operands. Both write memory as "[base, offset]"; arm marks
// immediates with '#', aarch64 gcc writes them bare.
#include <elf.h>

#include <cctype>

#include "elf/usdt_operand.h"

namespace rawprobe::elf::usdt {
namespace {

// Floating-point/SIMD registers: aarch64 v/q/d/s/h/bN, arm s/d/qN.
bool is_vector(std::string_view reg, bool aarch64) {
  if (reg.size() < 2) return false;
  std::string_view prefixes = aarch64 ? "vqdshb" : "sdq";
  if (prefixes.find(reg[0]) == std::string_view::npos) return false;
  for (char c : reg.substr(1))
    if (!isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

std::optional<int64_t> immediate(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text[0] == '#') text.remove_prefix(1);
  return parse_int(text);
}

Status parse_arm_family(Operand op, const arch::Table& table, UsdtArg& arg, bool aarch64) {
  if (op[0] == '[') {
    // [reg]            "8@[sp]"
    // [reg, off]       aarch64 "-4@[x29, -20]", arm "4@[fp, #-8]"
    // [reg, reg]       aarch64 "8@[x0, x1]" (index scaled by 1)
    if (op.back() != ']') return make_error("expected ']' at the end of '" + std::string(op) + "'");
    std::string_view inner = op.substr(1, op.size() - 2);
    size_t comma = inner.find(',');
    std::string_view base = trim(inner.substr(0, comma));
    if (Status st = resolve_reg(base, table, arg.base); !st) return st;
    arg.kind = UsdtArgKind::Memory;
    if (comma == std::string_view::npos) return {};
    std::string_view second = trim(inner.substr(comma + 1));
    if (second.find(',') != std::string_view::npos)
      return make_error("shifted or extended index in '" + std::string(op) + "' is not supported");
    if (auto off = immediate(second)) {
      arg.offset = *off;
      return {};
    }
    if (Status st = resolve_reg(second, table, arg.index); !st) return st;
    arg.kind = UsdtArgKind::Indexed;
    return {};
  }
  // Constants: aarch64 "4@5", arm "4@#5".
  if (auto value = immediate(op); value && (aarch64 || op[0] == '#')) {
    arg.kind = UsdtArgKind::Constant;
    arg.constant = *value;
    return {};
  }
  // Registers: aarch64 "8@x0", "-4@w1", "8@sp"; arm "4@r0", "4@fp"; "8@d0" is a vector reg.
  if (is_vector(op, aarch64)) {
    arg.kind = UsdtArgKind::VectorRegister;
    arg.vector_reg = std::string(op);
    return {};
  }
  arg.kind = UsdtArgKind::Register;
  return resolve_reg(op, table, arg.base);
}

}  // namespace

Status parse_aarch64(Operand op, const arch::Table& table, UsdtArg& arg) {
  return parse_arm_family(op, table, arg, true);
}

Status parse_arm(Operand op, const arch::Table& table, UsdtArg& arg) {
  return parse_arm_family(op, table, arg, false);
}

}  // namespace rawprobe::elf::usdt
