#include "elf/uprobe_refusal.h"

#include <elf.h>

#include "elf/hex.h"

namespace rawprobe::elf {

namespace {

// x86 legacy prefixes: LOCK, REPNE, REP, the six segment overrides, operand and address size.
bool legacy_prefix(uint8_t b) {
  switch (b) {
    case 0xf0: case 0xf2: case 0xf3: case 0x26: case 0x2e: case 0x36: case 0x3e:
    case 0x64: case 0x65: case 0x66: case 0x67:
      return true;
  }
  return false;
}

const char* refused_prefix_name(uint8_t b) {
  switch (b) {
    case 0xf0: return "LOCK";
    case 0x26: return "ES";
    case 0x2e: return "CS";
    case 0x36: return "SS";
    case 0x3e: return "DS";
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> uprobe_refusal(const arch::Table* table, std::span<const uint8_t> code) {
  if (!table || table->uprobe_refusal != arch::UprobeRefusal::X86Prefixes) return std::nullopt;
  constexpr size_t kMaxInstruction = 15;  // no x86 instruction is longer
  for (size_t i = 0; i < code.size() && i < kMaxInstruction && legacy_prefix(code[i]); ++i)
    if (const char* name = refused_prefix_name(code[i]))
      return std::string("it starts with a ") + name + " prefix (" + hex(code[i]) +
             "), and the kernel's x86 uprobes refuse such instructions (ENOTSUPP)";
  return std::nullopt;
}

}  // namespace rawprobe::elf
