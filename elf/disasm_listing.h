// `-lv` of one function: its Capstone disassembly with the offset FUNC+OFF would use, the
// link-time address, and objdump-style names for the addresses instructions refer to:
//     +37    0x118e  call 0x1030 <puts@plt>
//     +4     0x116d  mov rax, qword ptr [rip + 0x2eec]  # 0x4060 <counter>
// Branch targets are named by the nearest function symbol at or before them in the same
// section (objdump's rule), PLT stubs by the import they jump to (elf/plt_stubs.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "elf/elf_file.h"
#include "elf/symbols.h"

namespace rawprobe::elf {

Result<std::vector<std::string>> disassembly_listing(const ElfFile& file, const SymbolTable& table,
                                                     const Symbol& function);

// "<name>" or "<name+0x1c>" for `address`, or "" when no symbol names it.
std::string address_label(const ElfFile& file, const SymbolTable& table, uint64_t address);

}  // namespace rawprobe::elf
