// aarch64: the kernel's struct pt_regs (arch/arm64/include/asm/ptrace.h) begins with the uapi
// struct user_pt_regs { u64 regs[31]; u64 sp; u64 pc; u64 pstate; }, which is what libbpf's
// bpf_tracing.h casts a kprobe context to. After it come kernel-internal fields (orig_x0,
// syscallno, pmr_save, stackframe, ...) whose layout changed across versions: not described.
#include <elf.h>

#include <capstone/capstone.h>

#include "arch/tables.h"

namespace rawprobe::arch {
namespace {

constexpr RegSlot slots[] = {
    {"regs[0]", 0, 8},     {"regs[1]", 8, 8},     {"regs[2]", 16, 8},    {"regs[3]", 24, 8},
    {"regs[4]", 32, 8},    {"regs[5]", 40, 8},    {"regs[6]", 48, 8},    {"regs[7]", 56, 8},
    {"regs[8]", 64, 8},    {"regs[9]", 72, 8},    {"regs[10]", 80, 8},   {"regs[11]", 88, 8},
    {"regs[12]", 96, 8},   {"regs[13]", 104, 8},  {"regs[14]", 112, 8},  {"regs[15]", 120, 8},
    {"regs[16]", 128, 8},  {"regs[17]", 136, 8},  {"regs[18]", 144, 8},  {"regs[19]", 152, 8},
    {"regs[20]", 160, 8},  {"regs[21]", 168, 8},  {"regs[22]", 176, 8},  {"regs[23]", 184, 8},
    {"regs[24]", 192, 8},  {"regs[25]", 200, 8},  {"regs[26]", 208, 8},  {"regs[27]", 216, 8},
    {"regs[28]", 224, 8},  {"regs[29]", 232, 8},  {"regs[30]", 240, 8},
    {"sp", 248, 8},        {"pc", 256, 8},        {"pstate", 264, 8},
};

// AAPCS64: x0..x7 carry arguments, x0 the result, x29 is the frame pointer, x30 the link.
constexpr std::string_view arg_regs[] = {"regs[0]", "regs[1]", "regs[2]", "regs[3]",
                                         "regs[4]", "regs[5]", "regs[6]", "regs[7]"};

// xN is 64 bits, wN its low 32 bits; fp and lr are the assembler's names for x29 and x30.
constexpr RegAlias aliases[] = {
    {"x0", "regs[0]", 64, 0},   {"w0", "regs[0]", 32, 0},   {"x1", "regs[1]", 64, 0},
    {"w1", "regs[1]", 32, 0},   {"x2", "regs[2]", 64, 0},   {"w2", "regs[2]", 32, 0},
    {"x3", "regs[3]", 64, 0},   {"w3", "regs[3]", 32, 0},   {"x4", "regs[4]", 64, 0},
    {"w4", "regs[4]", 32, 0},   {"x5", "regs[5]", 64, 0},   {"w5", "regs[5]", 32, 0},
    {"x6", "regs[6]", 64, 0},   {"w6", "regs[6]", 32, 0},   {"x7", "regs[7]", 64, 0},
    {"w7", "regs[7]", 32, 0},   {"x8", "regs[8]", 64, 0},   {"w8", "regs[8]", 32, 0},
    {"x9", "regs[9]", 64, 0},   {"w9", "regs[9]", 32, 0},   {"x10", "regs[10]", 64, 0},
    {"w10", "regs[10]", 32, 0}, {"x11", "regs[11]", 64, 0}, {"w11", "regs[11]", 32, 0},
    {"x12", "regs[12]", 64, 0}, {"w12", "regs[12]", 32, 0}, {"x13", "regs[13]", 64, 0},
    {"w13", "regs[13]", 32, 0}, {"x14", "regs[14]", 64, 0}, {"w14", "regs[14]", 32, 0},
    {"x15", "regs[15]", 64, 0}, {"w15", "regs[15]", 32, 0}, {"x16", "regs[16]", 64, 0},
    {"w16", "regs[16]", 32, 0}, {"x17", "regs[17]", 64, 0}, {"w17", "regs[17]", 32, 0},
    {"x18", "regs[18]", 64, 0}, {"w18", "regs[18]", 32, 0}, {"x19", "regs[19]", 64, 0},
    {"w19", "regs[19]", 32, 0}, {"x20", "regs[20]", 64, 0}, {"w20", "regs[20]", 32, 0},
    {"x21", "regs[21]", 64, 0}, {"w21", "regs[21]", 32, 0}, {"x22", "regs[22]", 64, 0},
    {"w22", "regs[22]", 32, 0}, {"x23", "regs[23]", 64, 0}, {"w23", "regs[23]", 32, 0},
    {"x24", "regs[24]", 64, 0}, {"w24", "regs[24]", 32, 0}, {"x25", "regs[25]", 64, 0},
    {"w25", "regs[25]", 32, 0}, {"x26", "regs[26]", 64, 0}, {"w26", "regs[26]", 32, 0},
    {"x27", "regs[27]", 64, 0}, {"w27", "regs[27]", 32, 0}, {"x28", "regs[28]", 64, 0},
    {"w28", "regs[28]", 32, 0}, {"x29", "regs[29]", 64, 0}, {"w29", "regs[29]", 32, 0},
    {"x30", "regs[30]", 64, 0}, {"w30", "regs[30]", 32, 0},
    {"fp", "regs[29]", 64, 0},  {"lr", "regs[30]", 64, 0},
    {"sp", "sp", 64, 0},        {"wsp", "sp", 32, 0},       {"pc", "pc", 64, 0},
};

// An AArch32 process on an arm64 kernel: the kernel saves r0..r14 in regs[0..14] (the
// compat_* macros of arch/arm64/include/asm/ptrace.h: compat_fp regs[11], compat_sp
// regs[13], compat_lr regs[14]) and its pc and cpsr in pc and pstate.
constexpr RegAlias aarch32_compat_aliases[] = {
    {"r0", "regs[0]", 32, 0},   {"r1", "regs[1]", 32, 0},   {"r2", "regs[2]", 32, 0},
    {"r3", "regs[3]", 32, 0},   {"r4", "regs[4]", 32, 0},   {"r5", "regs[5]", 32, 0},
    {"r6", "regs[6]", 32, 0},   {"r7", "regs[7]", 32, 0},   {"r8", "regs[8]", 32, 0},
    {"r9", "regs[9]", 32, 0},   {"r10", "regs[10]", 32, 0}, {"r11", "regs[11]", 32, 0},
    {"r12", "regs[12]", 32, 0}, {"r13", "regs[13]", 32, 0}, {"r14", "regs[14]", 32, 0},
    {"r15", "pc", 32, 0},       {"sb", "regs[9]", 32, 0},   {"sl", "regs[10]", 32, 0},
    {"fp", "regs[11]", 32, 0},  {"ip", "regs[12]", 32, 0},  {"sp", "regs[13]", 32, 0},
    {"lr", "regs[14]", 32, 0},  {"pc", "pc", 32, 0},
};

// AAPCS (32-bit): r0..r3 carry arguments, r0 the result.
constexpr std::string_view aarch32_compat_arg_regs[] = {"regs[0]", "regs[1]", "regs[2]",
                                                        "regs[3]"};

}  // namespace

constexpr Table aarch64_table = {
    .e_machine = EM_AARCH64, .elf_class = ELFCLASS64, .name = "aarch64",
    .nr_bpf = 280, .nr_perf_event_open = 241,  // include/uapi/asm-generic/unistd.h
    .pt_regs_size = 272, .pt_regs = slots, .arg_regs = arg_regs, .ret_reg = "regs[0]",
    .sp_reg = "sp", .ip_reg = "pc", .fp_reg = "regs[29]", .usdt_aliases = aliases,
    .uapi_struct = "struct user_pt_regs",
    .stack_args = StackArgs::AfterRegisters, .multiarch = "aarch64-linux-gnu",
    .capstone_arch = CS_ARCH_ARM64, .mapping_symbols = true, .usdt_syntax = UsdtSyntax::Aarch64,
    .plt_jump_slot_reloc = R_AARCH64_JUMP_SLOT, .plt_glob_dat_reloc = R_AARCH64_GLOB_DAT,
    .cpp_macros = "__aarch64__ __CHAR_UNSIGNED__ __BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__",
};

constexpr Table arm_on_aarch64_table = {
    .e_machine = EM_ARM, .elf_class = ELFCLASS32, .name = "arm-on-aarch64",
    .nr_bpf = aarch64_table.nr_bpf, .nr_perf_event_open = aarch64_table.nr_perf_event_open,
    .pt_regs_size = 272, .pt_regs = slots, .arg_regs = aarch32_compat_arg_regs,
    .ret_reg = "regs[0]", .sp_reg = "regs[13]", .ip_reg = "pc", .fp_reg = "regs[11]",
    .usdt_aliases = aarch32_compat_aliases, .uapi_struct = "struct user_pt_regs",
    .multiarch = "arm-linux-gnueabihf", .capstone_arch = CS_ARCH_ARM, .capstone_mode = CS_MODE_ARM,
    .mapping_symbols = true, .usdt_syntax = UsdtSyntax::Arm,
    .plt_jump_slot_reloc = R_ARM_JUMP_SLOT, .plt_glob_dat_reloc = R_ARM_GLOB_DAT,
    .thumb_symbols = true,
    .cpp_macros = "__arm__ __ARMEL__ __CHAR_UNSIGNED__ __BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__",
};

}  // namespace rawprobe::arch

// The host check on an arm64 build: the table must match this machine's uapi headers.
#if defined(__aarch64__)
#include <asm/ptrace.h>
#include <sys/syscall.h>

#include <cstddef>

namespace rawprobe::arch {
namespace {
consteval bool regs_match_uapi() {
  for (int i = 0; i < 31; ++i)
    if (slots[i].offset != offsetof(user_pt_regs, regs) + i * sizeof(user_pt_regs{}.regs[0]))
      return false;
  return true;
}
static_assert(regs_match_uapi(), "aarch64 regs[] slots disagree with <asm/ptrace.h>");
static_assert(offsetof(user_pt_regs, sp) == slot_offset(slots, "sp"));
static_assert(offsetof(user_pt_regs, pc) == slot_offset(slots, "pc"));
static_assert(offsetof(user_pt_regs, pstate) == slot_offset(slots, "pstate"));
static_assert(sizeof(user_pt_regs) == aarch64_table.pt_regs_size);
static_assert(__NR_bpf == aarch64_table.nr_bpf);
static_assert(__NR_perf_event_open == aarch64_table.nr_perf_event_open);
static_assert(__NR_fsopen == aarch64_table.nr_unified(430));
}  // namespace
}  // namespace rawprobe::arch
#endif
