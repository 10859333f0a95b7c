// Internal to arch/: the x86 register names that 32-bit and 64-bit code share, used by the
// i386 table, the i386-on-x86_64 compat view and the x86_64 table. Slot names are the kernel's
// (ax, bx, ...), which both its 32-bit and its 64-bit struct pt_regs use since Linux 2.6.25.
#pragma once
#include "arch/tables.h"

namespace rawprobe::arch {

// The eight legacy registers' 32-, 16- and 8-bit names. ah/bh/ch/dh are bits 8..15.
inline constexpr RegAlias x86_legacy_aliases[] = {
    {"eax", "ax", 32, 0}, {"ax", "ax", 16, 0}, {"al", "ax", 8, 0}, {"ah", "ax", 8, 8},
    {"ebx", "bx", 32, 0}, {"bx", "bx", 16, 0}, {"bl", "bx", 8, 0}, {"bh", "bx", 8, 8},
    {"ecx", "cx", 32, 0}, {"cx", "cx", 16, 0}, {"cl", "cx", 8, 0}, {"ch", "cx", 8, 8},
    {"edx", "dx", 32, 0}, {"dx", "dx", 16, 0}, {"dl", "dx", 8, 0}, {"dh", "dx", 8, 8},
    {"esi", "si", 32, 0}, {"si", "si", 16, 0},
    {"edi", "di", 32, 0}, {"di", "di", 16, 0},
    {"ebp", "bp", 32, 0}, {"bp", "bp", 16, 0},
    {"esp", "sp", 32, 0}, {"sp", "sp", 16, 0},
};

// What only 32-bit code names: its instruction pointer.
inline constexpr RegAlias x86_32bit_only_aliases[] = {
    {"eip", "ip", 32, 0},
};

// The i386 names, on whichever pt_regs holds them (the 32-bit kernel's or the 64-bit one's).
inline constexpr auto i386_aliases = join(x86_legacy_aliases, x86_32bit_only_aliases);

// cdecl: at a function's entry (sp) holds the return address, the first argument is above it.
inline constexpr uint8_t i386_cdecl_first_arg = 4;

}  // namespace rawprobe::arch
