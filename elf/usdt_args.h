// USDT argument specs ("-4@%edi 8@-24(%rbp) 8@x(%rip)") parsed into one structured form for
// every architecture. The parser is chosen by the TARGET binary's e_machine, never the host's:
// an aarch64 binary's notes parse the same on x86_64. Register names are resolved through the
// binary's arch/ table to a pt_regs slot; a 32-bit process on a 64-bit kernel re-resolves
// UsdtReg::name through arch::for_process().
//
// Operand forms (examples in each parser file):
//   Constant        value = constant
//   Register        value = reg
//   Memory          value = *(reg + offset [+ bias + symbol])
//                   or, GOT-relative, *(reg + offset + symbol - GOT): i386 PIC code's
//                   "counter@GOTOFF(%ebx)", whose register holds the run-time GOT
//   Indexed         value = *([reg] + index * scale + offset [+ bias + symbol])
//   SymbolRelative  value = *(bias + symbol + offset), e.g. x86 "sym+8(%rip)"; bias is the
//                   load bias: the probe's runtime ip minus its link-time address
//   VectorRegister  parsed (x86 %xmmN, aarch64 vN/dN) but not readable from pt_regs
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arch/arch.h"
#include "engine/base/result.h"

namespace rawprobe::elf {

enum class UsdtArgKind { Constant, Register, Memory, Indexed, SymbolRelative, VectorRegister };
std::string_view kind_name(UsdtArgKind kind);

struct UsdtReg {
  std::string name;      // the arch/ alias ("eax", "x1", "$a0", "r3"); empty = none
  arch::RegSlot slot{};  // pt_regs field in the binary's table
  uint8_t width_bits = 0;
  uint8_t bit_offset = 0;  // 8 for ah/bh/ch/dh
  bool present() const { return !name.empty(); }
};

struct UsdtArg {
  std::string text;        // the spec as written, "-4@-20(%rbp)"
  uint8_t size = 0;        // 1, 2, 4 or 8 bytes
  bool is_signed = false;  // negative size prefix
  UsdtArgKind kind = UsdtArgKind::Constant;
  int64_t constant = 0;    // Constant: the value
  int64_t offset = 0;      // Memory, Indexed, SymbolRelative: displacement
  UsdtReg base;            // Register, Memory, Indexed (optional for Indexed)
  UsdtReg index;           // Indexed
  uint8_t scale = 1;       // Indexed: 1, 2, 4, 8
  std::string symbol;      // link-time symbol to add (SymbolRelative, or a symbolic offset)
  bool got_relative = false;  // symbol written "sym@GOTOFF": add its distance from the GOT
                              // (_GLOBAL_OFFSET_TABLE_), not bias + its address
  std::string vector_reg;  // VectorRegister: the name

  // The address moves with the load bias (the probe's run-time ip minus its link-time
  // address): a rip-relative or absolute symbol, not a GOT-relative one.
  bool load_biased() const {
    return kind == UsdtArgKind::SymbolRelative || (!symbol.empty() && !got_relative);
  }
  // Why attaching cannot read this argument, or empty when it can.
  std::string unsupported_reason() const;
  // "signed 32-bit, memory at rbp (pt_regs+32) - 20": the meaning -lv and --explain print
  // (elf/usdt_describe.cpp). `symbol_address`: link-time address of `symbol`, 0 if unknown.
  std::string describe(uint64_t symbol_address = 0) const;
};

// Parses all of a note's arguments (any count; sdt.h stops at 12, hand-written notes do not).
// Errors name the argument's position and text and say what was expected.
Result<std::vector<UsdtArg>> parse_usdt_args(std::string_view args, const arch::Table& table);
Result<std::vector<UsdtArg>> parse_usdt_args(std::string_view args, uint16_t e_machine,
                                             uint8_t elf_class);

}  // namespace rawprobe::elf
