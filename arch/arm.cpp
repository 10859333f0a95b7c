// arm (32-bit, EABI): the kernel's struct pt_regs is { unsigned long uregs[18]; }, the same
// as the uapi struct (arch/arm/include/uapi/asm/ptrace.h): r0..r15 in uregs[0..15], then cpsr
// and orig_r0. An arm process on an arm64 kernel gets the compat view of aarch64.cpp instead.
#include <elf.h>

#include <capstone/capstone.h>

#include "arch/tables.h"

namespace rawprobe::arch {
namespace {

constexpr RegSlot slots[] = {
    {"uregs[0]", 0, 4},    {"uregs[1]", 4, 4},    {"uregs[2]", 8, 4},    {"uregs[3]", 12, 4},
    {"uregs[4]", 16, 4},   {"uregs[5]", 20, 4},   {"uregs[6]", 24, 4},   {"uregs[7]", 28, 4},
    {"uregs[8]", 32, 4},   {"uregs[9]", 36, 4},   {"uregs[10]", 40, 4},  {"uregs[11]", 44, 4},
    {"uregs[12]", 48, 4},  {"uregs[13]", 52, 4},  {"uregs[14]", 56, 4},  {"uregs[15]", 60, 4},
    {"uregs[16]", 64, 4},  // cpsr
    {"uregs[17]", 68, 4},  // orig_r0
};

// AAPCS: r0..r3 carry arguments, r0 the result. fp is r11 in ARM code (Thumb code uses r7).
constexpr std::string_view arg_regs[] = {"uregs[0]", "uregs[1]", "uregs[2]", "uregs[3]"};

// r0..r15 and the assembler's special names (sb r9, sl r10, fp r11, ip r12, sp, lr, pc).
constexpr RegAlias aliases[] = {
    {"r0", "uregs[0]", 32, 0},   {"r1", "uregs[1]", 32, 0},   {"r2", "uregs[2]", 32, 0},
    {"r3", "uregs[3]", 32, 0},   {"r4", "uregs[4]", 32, 0},   {"r5", "uregs[5]", 32, 0},
    {"r6", "uregs[6]", 32, 0},   {"r7", "uregs[7]", 32, 0},   {"r8", "uregs[8]", 32, 0},
    {"r9", "uregs[9]", 32, 0},   {"r10", "uregs[10]", 32, 0}, {"r11", "uregs[11]", 32, 0},
    {"r12", "uregs[12]", 32, 0}, {"r13", "uregs[13]", 32, 0}, {"r14", "uregs[14]", 32, 0},
    {"r15", "uregs[15]", 32, 0}, {"sb", "uregs[9]", 32, 0},   {"sl", "uregs[10]", 32, 0},
    {"fp", "uregs[11]", 32, 0},  {"ip", "uregs[12]", 32, 0},  {"sp", "uregs[13]", 32, 0},
    {"lr", "uregs[14]", 32, 0},  {"pc", "uregs[15]", 32, 0},
};

}  // namespace

constexpr Table arm_table = {
    .e_machine = EM_ARM, .elf_class = ELFCLASS32, .name = "arm",
    .nr_bpf = 386, .nr_perf_event_open = 364,  // arch/arm/tools/syscall.tbl (EABI)
    .pt_regs_size = 72, .pt_regs = slots, .arg_regs = arg_regs, .ret_reg = "uregs[0]",
    .sp_reg = "uregs[13]", .ip_reg = "uregs[15]", .fp_reg = "uregs[11]",
    .usdt_aliases = aliases, .uapi_struct = "struct pt_regs",
    .multiarch = "arm-linux-gnueabihf", .capstone_arch = CS_ARCH_ARM, .capstone_mode = CS_MODE_ARM,
    .mapping_symbols = true, .usdt_syntax = UsdtSyntax::Arm,
    .plt_jump_slot_reloc = R_ARM_JUMP_SLOT, .plt_glob_dat_reloc = R_ARM_GLOB_DAT,
    .thumb_symbols = true,
};

}  // namespace rawprobe::arch
