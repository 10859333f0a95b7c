// ppc64 / ppc64le: the kernel's struct pt_regs (arch/powerpc/include/asm/ptrace.h) begins with
// a union whose user half is the uapi struct pt_regs (published as struct user_pt_regs inside
// the kernel): gpr[32], nip, msr, ... result. Kernel-internal fields (ppr, kuap, amr, ...)
// follow and vary by config: not described. Both byte orders share this layout (EM_PPC64).
#include <elf.h>

#include <capstone/capstone.h>

#include "arch/tables.h"

namespace rawprobe::arch {
namespace {

constexpr RegSlot slots[] = {
    {"gpr[0]", 0, 8}, {"gpr[1]", 8, 8}, {"gpr[2]", 16, 8}, {"gpr[3]", 24, 8},
    {"gpr[4]", 32, 8}, {"gpr[5]", 40, 8}, {"gpr[6]", 48, 8}, {"gpr[7]", 56, 8},
    {"gpr[8]", 64, 8}, {"gpr[9]", 72, 8}, {"gpr[10]", 80, 8}, {"gpr[11]", 88, 8},
    {"gpr[12]", 96, 8}, {"gpr[13]", 104, 8}, {"gpr[14]", 112, 8}, {"gpr[15]", 120, 8},
    {"gpr[16]", 128, 8}, {"gpr[17]", 136, 8}, {"gpr[18]", 144, 8}, {"gpr[19]", 152, 8},
    {"gpr[20]", 160, 8}, {"gpr[21]", 168, 8}, {"gpr[22]", 176, 8}, {"gpr[23]", 184, 8},
    {"gpr[24]", 192, 8}, {"gpr[25]", 200, 8}, {"gpr[26]", 208, 8}, {"gpr[27]", 216, 8},
    {"gpr[28]", 224, 8}, {"gpr[29]", 232, 8}, {"gpr[30]", 240, 8}, {"gpr[31]", 248, 8},
    {"nip", 256, 8},       {"msr", 264, 8},       {"orig_gpr3", 272, 8}, {"ctr", 280, 8},
    {"link", 288, 8},      {"xer", 296, 8},       {"ccr", 304, 8},       {"softe", 312, 8},
    {"trap", 320, 8},      {"dar", 328, 8},       {"dsisr", 336, 8},     {"result", 344, 8},
};

// ELFv2 ABI: r3..r10 carry arguments, r3 the result, r1 is the stack pointer. There is no
// dedicated frame pointer; gcc uses r31 when a function needs one (as libbpf assumes too).
constexpr std::string_view arg_regs[] = {"gpr[3]", "gpr[4]", "gpr[5]", "gpr[6]",
                                         "gpr[7]", "gpr[8]", "gpr[9]", "gpr[10]"};

// gcc prints ppc registers as bare numbers ("8@3") unless -mregnames ("8@%r3"); the USDT
// parser maps a bare number N to rN. Also the special registers an operand can name.
constexpr RegAlias aliases[] = {
    {"r0", "gpr[0]", 64, 0}, {"r1", "gpr[1]", 64, 0}, {"r2", "gpr[2]", 64, 0}, {"r3", "gpr[3]", 64, 0},
    {"r4", "gpr[4]", 64, 0}, {"r5", "gpr[5]", 64, 0}, {"r6", "gpr[6]", 64, 0}, {"r7", "gpr[7]", 64, 0},
    {"r8", "gpr[8]", 64, 0}, {"r9", "gpr[9]", 64, 0}, {"r10", "gpr[10]", 64, 0}, {"r11", "gpr[11]", 64, 0},
    {"r12", "gpr[12]", 64, 0}, {"r13", "gpr[13]", 64, 0}, {"r14", "gpr[14]", 64, 0}, {"r15", "gpr[15]", 64, 0},
    {"r16", "gpr[16]", 64, 0}, {"r17", "gpr[17]", 64, 0}, {"r18", "gpr[18]", 64, 0}, {"r19", "gpr[19]", 64, 0},
    {"r20", "gpr[20]", 64, 0}, {"r21", "gpr[21]", 64, 0}, {"r22", "gpr[22]", 64, 0}, {"r23", "gpr[23]", 64, 0},
    {"r24", "gpr[24]", 64, 0}, {"r25", "gpr[25]", 64, 0}, {"r26", "gpr[26]", 64, 0}, {"r27", "gpr[27]", 64, 0},
    {"r28", "gpr[28]", 64, 0}, {"r29", "gpr[29]", 64, 0}, {"r30", "gpr[30]", 64, 0}, {"r31", "gpr[31]", 64, 0},
    {"sp", "gpr[1]", 64, 0},  {"lr", "link", 64, 0},  {"ctr", "ctr", 64, 0},
};

}  // namespace

constexpr Table ppc64le_table = {
    .e_machine = EM_PPC64, .elf_class = ELFCLASS64, .name = "ppc64le",
    .nr_bpf = 361, .nr_perf_event_open = 319,  // arch/powerpc/kernel/syscalls/syscall.tbl
    .pt_regs_size = 352, .pt_regs = slots, .arg_regs = arg_regs, .ret_reg = "gpr[3]",
    .sp_reg = "gpr[1]", .ip_reg = "nip", .fp_reg = "gpr[31]", .usdt_aliases = aliases,
    .uapi_struct = "struct pt_regs",
    .multiarch = "powerpc64le-linux-gnu", .capstone_arch = CS_ARCH_PPC, .capstone_mode = CS_MODE_64,
    .offset_base = {.percent_registers = true, .numbered_registers = true},
};

}  // namespace rawprobe::arch
