// The link-time value a USDT argument's symbol contributes to the address it reads, from the
// file's own symbol tables (elf/resolve for attaching, elf/usdt_describe for listings).
#pragma once
#include <cstdint>
#include <optional>

#include "elf/elf_file.h"
#include "elf/usdt_args.h"

namespace rawprobe::elf {

// The symbol's link-time address ("counter(%rip)", i386's absolute "counter"); for a
// GOT-relative symbol ("counter@GOTOFF(%ebx)") its distance from the GOT, as the linker
// resolves @GOTOFF: symbol - _GLOBAL_OFFSET_TABLE_, two's complement when below it.
// nullopt when the file does not define the symbol (or, for @GOTOFF, has no GOT).
std::optional<uint64_t> usdt_symbol_value(const ElfFile& file, const UsdtArg& arg);

}  // namespace rawprobe::elf
