// Internal to arch/: the table objects each arch/<name>.cpp defines, for arch/lookup.cpp, and
// a constexpr slot lookup the per-architecture host checks use inside static_assert.
#pragma once
#include <array>

#include "arch/arch.h"

namespace rawprobe::arch {

extern const Table x86_64_table;
extern const Table i386_table;
extern const Table i386_on_x86_64_table;  // compat view, see for_process()
extern const Table aarch64_table;
extern const Table arm_table;
extern const Table arm_on_aarch64_table;  // compat view, see for_process()
extern const Table riscv64_table;
extern const Table ppc64le_table;
extern const Table s390x_table;
extern const Table mips64_table;
extern const Table loongarch64_table;

// Offset of a slot by name, usable in static_assert; a missing name stops the compilation.
consteval uint16_t slot_offset(std::span<const RegSlot> slots, std::string_view name) {
  for (const RegSlot& slot : slots)
    if (slot.name == name) return slot.offset;
  throw "no such pt_regs slot";  // not a constant expression: fails the static_assert
}

}  // namespace rawprobe::arch

namespace rawprobe::arch {

// Joins two lists at compile time, for a table that extends another's list (x86_64's names
// are i386's plus the r-registers; mips's pt_regs is regs[32] plus its cp0 fields).
template <typename T, size_t A, size_t B>
consteval std::array<T, A + B> join(const T (&a)[A], const T (&b)[B]) {
  std::array<T, A + B> all{};
  for (size_t i = 0; i < A; ++i) all[i] = a[i];
  for (size_t i = 0; i < B; ++i) all[A + i] = b[i];
  return all;
}

// `unsigned long regs[32]` at offset 0: how mips64 and loongarch64 begin their pt_regs.
inline constexpr RegSlot regs32_slots[] = {
    {"regs[0]", 0, 8}, {"regs[1]", 8, 8}, {"regs[2]", 16, 8}, {"regs[3]", 24, 8},
    {"regs[4]", 32, 8}, {"regs[5]", 40, 8}, {"regs[6]", 48, 8}, {"regs[7]", 56, 8},
    {"regs[8]", 64, 8}, {"regs[9]", 72, 8}, {"regs[10]", 80, 8}, {"regs[11]", 88, 8},
    {"regs[12]", 96, 8}, {"regs[13]", 104, 8}, {"regs[14]", 112, 8}, {"regs[15]", 120, 8},
    {"regs[16]", 128, 8}, {"regs[17]", 136, 8}, {"regs[18]", 144, 8}, {"regs[19]", 152, 8},
    {"regs[20]", 160, 8}, {"regs[21]", 168, 8}, {"regs[22]", 176, 8}, {"regs[23]", 184, 8},
    {"regs[24]", 192, 8}, {"regs[25]", 200, 8}, {"regs[26]", 208, 8}, {"regs[27]", 216, 8},
    {"regs[28]", 224, 8}, {"regs[29]", 232, 8}, {"regs[30]", 240, 8}, {"regs[31]", 248, 8},
};

}  // namespace rawprobe::arch
