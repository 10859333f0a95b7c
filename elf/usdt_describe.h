// The decoded meaning of USDT arguments, one text for `-lv` and `--explain` alike:
//   arg0: -8@%rax  signed 64-bit, register rax (pt_regs+80)
//   arg1: -4@-20(%rbp)  signed 32-bit, memory at rbp (pt_regs+32) - 20
// Register offsets are the pt_regs slots of the TARGET's arch/ table (chosen by the note's
// e_machine when it was parsed), so an aarch64 binary read on x86_64 shows arm64's layout.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "elf/elf_file.h"
#include "elf/usdt_args.h"

namespace rawprobe::elf {

// "argI: SPEC  MEANING". `symbol_address` is the link-time address of arg.symbol (0 when the
// argument names none or the file does not define it).
std::string describe_usdt_arg(size_t index, const UsdtArg& arg, uint64_t symbol_address);

// One line per argument of a note's argument string, parsed for `file`'s architecture and with
// named symbols looked up in its symbol tables; a single line naming the problem when the
// string does not parse.
std::vector<std::string> describe_usdt_args(const ElfFile& file, std::string_view args);

}  // namespace rawprobe::elf
