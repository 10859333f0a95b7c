// Thumb code on 32-bit arm, which the kernel's uprobes cannot probe. arch/arm/probes/uprobes
// (arch_uprobe_analyze_insn) refuses an address that is not 4-byte aligned with EINVAL and
// decodes only ARM-state (A32) instructions, so a uprobe on Thumb-2 code (Debian's armhf gcc
// emits it by default) either fails to attach or, at a 4-byte-aligned Thumb address, is taken
// as an ARM instruction and never fires. Known before attaching: the ARM ELF ABI marks
// Thumb functions with bit 0 of the symbol value, and mapping symbols ($t Thumb, $a ARM)
// say which state each stretch of code is in.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "elf/binary.h"
#include "elf/elf_file.h"
#include "elf/symbols.h"

namespace rawprobe::elf {

// Whether the code at link-time `address` is Thumb: the last $t or $a mapping symbol at or
// before it (within `function` when one is given), else the function symbol's Thumb bit.
// Always false for a file whose architecture has no Thumb state.
bool is_thumb_code(const ElfFile& file, const Symbol* function, uint64_t address);

// Why a uprobe at `address` (`what`: "'main'", "USDT probe p:n") cannot work, when it is
// Thumb code; nullopt otherwise.
std::optional<Error> thumb_refusal(const ElfFile& file, const Symbol* function, uint64_t address,
                                   const std::string& what);
// The same for an address whose function is looked up in `binary`'s symbols (a USDT site).
std::optional<Error> thumb_refusal(Binary& binary, uint64_t address, const std::string& what);

}  // namespace rawprobe::elf
