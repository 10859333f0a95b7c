// Decoded USDT argument text. One branch per operand kind, each with the text it prints.
#include "elf/usdt_describe.h"

#include "elf/binary.h"
#include "elf/hex.h"
#include "elf/usdt_symbol.h"

namespace rawprobe::elf {
namespace {

// "rax (pt_regs+80)"; "ah (bits 8-15 of pt_regs+80)" for x86's high byte registers.
std::string reg_text(const UsdtReg& reg) {
  std::string slot = "pt_regs+" + std::to_string(reg.slot.offset);
  if (reg.bit_offset)
    slot = "bits " + std::to_string(reg.bit_offset) + "-" +
           std::to_string(reg.bit_offset + reg.width_bits - 1) + " of " + slot;
  return reg.name + " (" + slot + ")";
}

// " + 8", " - 16", or "" for 0.
std::string displacement(int64_t offset) {
  if (offset == 0) return {};
  // Negate in unsigned arithmetic: INT64_MIN has no positive int64.
  return offset > 0 ? " + " + std::to_string(offset)
                    : " - " + std::to_string(0 - static_cast<uint64_t>(offset));
}

// "counter (link-time 0x4018 + load bias)": a symbol's run-time address is its link-time one
// moved by the load bias (the probe's run-time ip minus its link-time address).
// "counter@GOTOFF (GOT + 0xac)": i386 PIC's globals, at a link-time distance from the GOT
// whose run-time address the base register holds (no load bias to add).
std::string symbol_text(const UsdtArg& arg, uint64_t symbol_address) {
  if (arg.got_relative) {
    if (!symbol_address) return arg.symbol + "@GOTOFF (not defined in the file's symbol tables)";
    auto distance = static_cast<int64_t>(symbol_address);
    return arg.symbol + "@GOTOFF (GOT " + (distance < 0 ? "- " : "+ ") +
           hex(distance < 0 ? 0 - symbol_address : symbol_address) + ")";
  }
  return arg.symbol + (symbol_address ? " (link-time " + hex(symbol_address) + " + load bias)"
                                      : " (not defined in the file's symbol tables)");
}

}  // namespace

std::string UsdtArg::describe(uint64_t symbol_address) const {
  std::string type = std::string(is_signed ? "signed " : "unsigned ") + std::to_string(size * 8) + "-bit, ";
  switch (kind) {
    // -4@$42: "signed 32-bit, constant 42"
    case UsdtArgKind::Constant: return type + "constant " + std::to_string(constant);
    // -8@%rax: "signed 64-bit, register rax (pt_regs+80)"
    case UsdtArgKind::Register: return type + "register " + reg_text(base);
    // -4@-20(%rbp): "signed 32-bit, memory at rbp (pt_regs+32) - 20"
    // 8@sym+8(%rbx): "... memory at rbx (pt_regs+40) + sym (link-time 0x4010 + load bias) + 8"
    // -4@counter@GOTOFF(%eax): "... memory at eax (pt_regs+24) + counter@GOTOFF (GOT + 0xac)"
    case UsdtArgKind::Memory:
      return type + "memory at " + reg_text(base) +
             (symbol.empty() ? "" : " + " + symbol_text(*this, symbol_address)) + displacement(offset);
    // -8@(%rdx,%rdi,8): "memory at rdx (pt_regs+96) + rdi (pt_regs+112)*8"
    // 8@[x0, x1] (aarch64): "memory at x0 (pt_regs+0) + x1 (pt_regs+8)"
    case UsdtArgKind::Indexed: {
      std::string at = base.present() ? reg_text(base) + " + " : "";
      at += reg_text(index) + (scale != 1 ? "*" + std::to_string(scale) : "");
      if (!symbol.empty()) at += " + " + symbol_text(*this, symbol_address);
      return type + "memory at " + at + displacement(offset);
    }
    // -8@counter+8(%rip): "memory at counter (link-time 0x4018 + load bias) + 8"; i386's
    // absolute "4@counter" reads the same, and "4@0x804a01c" is "memory at 0x804a01c + load bias".
    case UsdtArgKind::SymbolRelative:
      if (symbol.empty()) return type + "memory at " + hex(static_cast<uint64_t>(offset)) + " + load bias";
      return type + "memory at " + symbol_text(*this, symbol_address) + displacement(offset);
    // 8@%xmm0: parsed, but pt_regs does not hold vector registers.
    case UsdtArgKind::VectorRegister:
      return type + "vector register " + vector_reg + " (not saved in pt_regs: unreadable)";
  }
  return type;
}

std::string describe_usdt_arg(size_t index, const UsdtArg& arg, uint64_t symbol_address) {
  return "arg" + std::to_string(index) + ": " + arg.text + "  " + arg.describe(symbol_address);
}

std::vector<std::string> describe_usdt_args(const ElfFile& file, std::string_view text) {
  Result<std::vector<UsdtArg>> args = parse_usdt_args(text, file.machine(), file.elf_class());
  if (!args) return {"arguments '" + std::string(text) + "': " + args.error().message()};
  std::vector<std::string> lines;
  for (size_t i = 0; i < args->size(); ++i) {
    const UsdtArg& arg = (*args)[i];
    uint64_t address = arg.symbol.empty() ? 0 : usdt_symbol_value(file, arg).value_or(0);
    lines.push_back(describe_usdt_arg(i, arg, address));
  }
  return lines;
}

}  // namespace rawprobe::elf
