// PLT stubs named as objdump names them ("printf@plt"), so a listing's `call 0x1030` reads
// `call 0x1030 <printf@plt>`. No symbol marks a stub: each stub's code computes the GOT slot
// it jumps through, and the dynamic relocation that fills that slot names the import.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "elf/elf_file.h"

namespace rawprobe::elf {

// Stub start address -> "name@plt", for x86_64, aarch64 and arm; empty for other machines or
// a file without a PLT.
std::map<uint64_t, std::string> plt_stubs(const ElfFile& file);

}  // namespace rawprobe::elf
