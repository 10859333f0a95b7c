// Splitting a note's argument string, the "N@" size prefix, and dispatch to the parser of the
// target's architecture.
#include <elf.h>

#include <cctype>
#include <charconv>

#include "elf/usdt_operand.h"

namespace rawprobe::elf {

namespace usdt {

std::string_view trim(std::string_view t) {
  while (!t.empty() && isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
  while (!t.empty() && isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
  return t;
}

std::optional<int64_t> parse_int(std::string_view text) {
  text = trim(text);
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  // Two's-complement wrap: "$-1" and "$0xffffffffffffffff" mean the same 64 bits.
  return static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
}

Status resolve_reg(std::string_view name, const arch::Table& table, UsdtReg& reg) {
  auto resolved = arch::resolve_alias(table, name);
  if (!resolved)
    return make_error("unknown " + std::string(table.name) + " register '" + std::string(name) + "'");
  reg.name = std::string(name);
  reg.slot = resolved->slot;
  reg.width_bits = resolved->width_bits;
  reg.bit_offset = resolved->bit_offset;
  return {};
}

}  // namespace usdt

std::string_view kind_name(UsdtArgKind kind) {
  switch (kind) {
    case UsdtArgKind::Constant: return "constant";
    case UsdtArgKind::Register: return "register";
    case UsdtArgKind::Memory: return "memory";
    case UsdtArgKind::Indexed: return "indexed";
    case UsdtArgKind::SymbolRelative: return "symbol";
    case UsdtArgKind::VectorRegister: return "vector-register";
  }
  return "?";
}

std::string UsdtArg::unsupported_reason() const {
  if (kind == UsdtArgKind::VectorRegister)
    return "argument '" + text + "' lives in vector register " + vector_reg +
           ", which the kernel does not save in pt_regs, so a BPF program cannot read it";
  return {};
}

namespace {

// Arguments are separated by spaces, except inside brackets: aarch64 writes "8@[x0, 8]".
std::vector<std::string_view> split_args(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = std::string_view::npos;
  int depth = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ' ';
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
    bool space = isspace(static_cast<unsigned char>(c)) && depth == 0;
    if (!space && start == std::string_view::npos) start = i;
    if ((space || i == text.size()) && start != std::string_view::npos) {
      out.push_back(text.substr(start, i - start));
      start = std::string_view::npos;
    }
  }
  return out;
}

Status parse_operand(std::string_view op, const arch::Table& table, UsdtArg& arg) {
  switch (table.usdt_syntax) {
    case arch::UsdtSyntax::X86: return usdt::parse_x86(op, table, arg);
    case arch::UsdtSyntax::Aarch64: return usdt::parse_aarch64(op, table, arg);
    case arch::UsdtSyntax::Arm: return usdt::parse_arm(op, table, arg);
    case arch::UsdtSyntax::OffsetBase: return usdt::parse_offset_base(op, table, arg);
  }
  return usdt::parse_offset_base(op, table, arg);
}

}  // namespace

Result<std::vector<UsdtArg>> parse_usdt_args(std::string_view text, const arch::Table& table) {
  std::vector<UsdtArg> args;
  std::vector<std::string_view> parts = split_args(text);
  for (size_t i = 0; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    UsdtArg arg;
    arg.text = std::string(part);
    auto fail = [&](const std::string& why) {
      return make_error("parse USDT argument " + std::to_string(i) + " '" + arg.text + "'",
                        std::string(table.name), why);
    };
    size_t at = part.find('@');
    if (at == std::string_view::npos)
      return fail("expected SIZE@OPERAND, e.g. -4@%edi (no '@' found)");
    auto size = usdt::parse_int(part.substr(0, at));
    if (!size || (*size != 1 && *size != 2 && *size != 4 && *size != 8 && *size != -1 &&
                  *size != -2 && *size != -4 && *size != -8))
      return fail("size '" + std::string(part.substr(0, at)) +
                  "' must be 1, 2, 4 or 8 bytes, negative for signed");
    arg.is_signed = *size < 0;
    arg.size = static_cast<uint8_t>(*size < 0 ? -*size : *size);
    std::string_view op = part.substr(at + 1);
    if (op.empty()) return fail("nothing after '@'");
    if (Status st = parse_operand(op, table, arg); !st) return fail(st.error().what);
    args.push_back(std::move(arg));
  }
  return args;
}

Result<std::vector<UsdtArg>> parse_usdt_args(std::string_view text, uint16_t e_machine,
                                             uint8_t elf_class) {
  const arch::Table* table = arch::by_machine(e_machine, elf_class);
  if (!table)
    return make_error("parse USDT arguments", "e_machine " + std::to_string(e_machine),
                      "rawprobe has no register table for this architecture");
  return parse_usdt_args(text, *table);
}

}  // namespace rawprobe::elf
