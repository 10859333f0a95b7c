// loongarch64: the kernel's struct pt_regs (arch/loongarch/include/asm/ptrace.h) is regs[32],
// orig_a0, csr_era, csr_badvaddr, then csr_crmd, csr_prmd, csr_euen, csr_ecfg, csr_estat. The
// uapi struct user_pt_regs shares the first 35 words (calling the third csr_badv) and then
// has reserved words; the csr_* fields after it are not described.
#include <elf.h>

#include "arch/tables.h"

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258  // glibc added it in 2.36's elf.h; older hosts lack it
#endif

namespace rawprobe::arch {
namespace {

constexpr RegSlot csr_slots[] = {
    {"orig_a0", 256, 8},  // first argument as the syscall entered
    {"csr_era", 264, 8},  // exception return address: the pc
    {"csr_badvaddr", 272, 8, "csr_badv"},
};
constexpr auto slots = join(regs32_slots, csr_slots);

// LoongArch psABI: $a0..$a7 ($r4..$r11) carry arguments, $a0 the result, $r3 is sp, $r22 fp.
constexpr std::string_view arg_regs[] = {"regs[4]", "regs[5]", "regs[6]",  "regs[7]",
                                         "regs[8]", "regs[9]", "regs[10]", "regs[11]"};

// Operands name registers by number ($r4) or by ABI name ($a0; $s9 = $fp; $v0/$v1 are the
// old names of $a0/$a1).
constexpr RegAlias aliases[] = {
    {"$r0", "regs[0]", 64, 0}, {"$r1", "regs[1]", 64, 0}, {"$r2", "regs[2]", 64, 0},
    {"$r3", "regs[3]", 64, 0}, {"$r4", "regs[4]", 64, 0}, {"$r5", "regs[5]", 64, 0},
    {"$r6", "regs[6]", 64, 0}, {"$r7", "regs[7]", 64, 0}, {"$r8", "regs[8]", 64, 0},
    {"$r9", "regs[9]", 64, 0}, {"$r10", "regs[10]", 64, 0}, {"$r11", "regs[11]", 64, 0},
    {"$r12", "regs[12]", 64, 0}, {"$r13", "regs[13]", 64, 0}, {"$r14", "regs[14]", 64, 0},
    {"$r15", "regs[15]", 64, 0}, {"$r16", "regs[16]", 64, 0}, {"$r17", "regs[17]", 64, 0},
    {"$r18", "regs[18]", 64, 0}, {"$r19", "regs[19]", 64, 0}, {"$r20", "regs[20]", 64, 0},
    {"$r21", "regs[21]", 64, 0}, {"$r22", "regs[22]", 64, 0}, {"$r23", "regs[23]", 64, 0},
    {"$r24", "regs[24]", 64, 0}, {"$r25", "regs[25]", 64, 0}, {"$r26", "regs[26]", 64, 0},
    {"$r27", "regs[27]", 64, 0}, {"$r28", "regs[28]", 64, 0}, {"$r29", "regs[29]", 64, 0},
    {"$r30", "regs[30]", 64, 0}, {"$r31", "regs[31]", 64, 0}, {"$zero", "regs[0]", 64, 0},
    {"$ra", "regs[1]", 64, 0}, {"$tp", "regs[2]", 64, 0}, {"$sp", "regs[3]", 64, 0},
    {"$a0", "regs[4]", 64, 0}, {"$a1", "regs[5]", 64, 0}, {"$a2", "regs[6]", 64, 0},
    {"$a3", "regs[7]", 64, 0}, {"$a4", "regs[8]", 64, 0}, {"$a5", "regs[9]", 64, 0},
    {"$a6", "regs[10]", 64, 0}, {"$a7", "regs[11]", 64, 0}, {"$t0", "regs[12]", 64, 0},
    {"$t1", "regs[13]", 64, 0}, {"$t2", "regs[14]", 64, 0}, {"$t3", "regs[15]", 64, 0},
    {"$t4", "regs[16]", 64, 0}, {"$t5", "regs[17]", 64, 0}, {"$t6", "regs[18]", 64, 0},
    {"$t7", "regs[19]", 64, 0}, {"$t8", "regs[20]", 64, 0}, {"$u0", "regs[21]", 64, 0},
    {"$fp", "regs[22]", 64, 0}, {"$s0", "regs[23]", 64, 0}, {"$s1", "regs[24]", 64, 0},
    {"$s2", "regs[25]", 64, 0}, {"$s3", "regs[26]", 64, 0}, {"$s4", "regs[27]", 64, 0},
    {"$s5", "regs[28]", 64, 0}, {"$s6", "regs[29]", 64, 0}, {"$s7", "regs[30]", 64, 0},
    {"$s8", "regs[31]", 64, 0}, {"$s9", "regs[22]", 64, 0}, {"$v0", "regs[4]", 64, 0},
    {"$v1", "regs[5]", 64, 0},
};

}  // namespace

constexpr Table loongarch64_table = {
    .e_machine = EM_LOONGARCH, .elf_class = ELFCLASS64, .name = "loongarch64",
    .nr_bpf = 280, .nr_perf_event_open = 241,  // include/uapi/asm-generic/unistd.h
    .pt_regs_size = 280, .pt_regs = slots, .arg_regs = arg_regs, .ret_reg = "regs[4]",
    .sp_reg = "regs[3]", .ip_reg = "csr_era", .fp_reg = "regs[22]", .usdt_aliases = aliases,
    .uapi_struct = "struct user_pt_regs",
    .multiarch = "loongarch64-linux-gnu", .fixed_insn_size = 4,
    .offset_base = {.base_comma_offset = true},
};

}  // namespace rawprobe::arch
