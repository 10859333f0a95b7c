// mips64 (n64 ABI, either byte order): the kernel's struct pt_regs (arch/mips/include/asm/
// ptrace.h, 64-bit: no pad0) is regs[32], cp0_status, hi, lo, cp0_badvaddr, cp0_cause,
// cp0_epc (then Octeon-only fields). The uapi struct pt_regs shares only regs[32]: it orders
// the rest lo, hi, cp0_epc, cp0_badvaddr, cp0_status, cp0_cause. So regs[] is checked against
// the uapi header and the special registers are kernel-internal, at the kernel's offsets
// (acx, which would shift them, exists only for 32-bit SmartMIPS kernels).
#include <elf.h>

#include <capstone/capstone.h>

#include "arch/tables.h"

namespace rawprobe::arch {
namespace {

constexpr RegSlot cp0_slots[] = {
    {"cp0_status", 256, 8, {}, true},   {"hi", 264, 8, {}, true},
    {"lo", 272, 8, {}, true},           {"cp0_badvaddr", 280, 8, {}, true},
    {"cp0_cause", 288, 8, {}, true},    {"cp0_epc", 296, 8, {}, true},
};
constexpr auto slots = join(regs32_slots, cp0_slots);

// n64: $4..$11 (a0..a7) carry arguments, $2 (v0) the result, $29 sp, $30 fp, $31 ra.
constexpr std::string_view arg_regs[] = {"regs[4]", "regs[5]", "regs[6]",  "regs[7]",
                                         "regs[8]", "regs[9]", "regs[10]", "regs[11]"};

// Operands name registers by number ($2) or by n64 ABI name ($v0, $a0, $s8 = $fp).
constexpr RegAlias aliases[] = {
    {"$0", "regs[0]", 64, 0}, {"$1", "regs[1]", 64, 0}, {"$2", "regs[2]", 64, 0},
    {"$3", "regs[3]", 64, 0}, {"$4", "regs[4]", 64, 0}, {"$5", "regs[5]", 64, 0},
    {"$6", "regs[6]", 64, 0}, {"$7", "regs[7]", 64, 0}, {"$8", "regs[8]", 64, 0},
    {"$9", "regs[9]", 64, 0}, {"$10", "regs[10]", 64, 0}, {"$11", "regs[11]", 64, 0},
    {"$12", "regs[12]", 64, 0}, {"$13", "regs[13]", 64, 0}, {"$14", "regs[14]", 64, 0},
    {"$15", "regs[15]", 64, 0}, {"$16", "regs[16]", 64, 0}, {"$17", "regs[17]", 64, 0},
    {"$18", "regs[18]", 64, 0}, {"$19", "regs[19]", 64, 0}, {"$20", "regs[20]", 64, 0},
    {"$21", "regs[21]", 64, 0}, {"$22", "regs[22]", 64, 0}, {"$23", "regs[23]", 64, 0},
    {"$24", "regs[24]", 64, 0}, {"$25", "regs[25]", 64, 0}, {"$26", "regs[26]", 64, 0},
    {"$27", "regs[27]", 64, 0}, {"$28", "regs[28]", 64, 0}, {"$29", "regs[29]", 64, 0},
    {"$30", "regs[30]", 64, 0}, {"$31", "regs[31]", 64, 0}, {"$zero", "regs[0]", 64, 0},
    {"$at", "regs[1]", 64, 0}, {"$v0", "regs[2]", 64, 0}, {"$v1", "regs[3]", 64, 0},
    {"$a0", "regs[4]", 64, 0}, {"$a1", "regs[5]", 64, 0}, {"$a2", "regs[6]", 64, 0},
    {"$a3", "regs[7]", 64, 0}, {"$a4", "regs[8]", 64, 0}, {"$a5", "regs[9]", 64, 0},
    {"$a6", "regs[10]", 64, 0}, {"$a7", "regs[11]", 64, 0}, {"$t0", "regs[12]", 64, 0},
    {"$t1", "regs[13]", 64, 0}, {"$t2", "regs[14]", 64, 0}, {"$t3", "regs[15]", 64, 0},
    {"$s0", "regs[16]", 64, 0}, {"$s1", "regs[17]", 64, 0}, {"$s2", "regs[18]", 64, 0},
    {"$s3", "regs[19]", 64, 0}, {"$s4", "regs[20]", 64, 0}, {"$s5", "regs[21]", 64, 0},
    {"$s6", "regs[22]", 64, 0}, {"$s7", "regs[23]", 64, 0}, {"$t8", "regs[24]", 64, 0},
    {"$t9", "regs[25]", 64, 0}, {"$k0", "regs[26]", 64, 0}, {"$k1", "regs[27]", 64, 0},
    {"$gp", "regs[28]", 64, 0}, {"$sp", "regs[29]", 64, 0}, {"$fp", "regs[30]", 64, 0},
    {"$ra", "regs[31]", 64, 0}, {"$s8", "regs[30]", 64, 0},
};

}  // namespace

constexpr Table mips64_table = {
    .e_machine = EM_MIPS, .elf_class = ELFCLASS64, .name = "mips64",
    // arch/mips/kernel/syscalls/syscall_n64.tbl: 315 and 292, plus __NR_Linux (5000) for n64
    .nr_bpf = 5315, .nr_perf_event_open = 5292, .nr_unified_base = 5000,
    .pt_regs_size = 304, .pt_regs = slots, .arg_regs = arg_regs, .ret_reg = "regs[2]",
    .sp_reg = "regs[29]", .ip_reg = "cp0_epc", .fp_reg = "regs[30]", .usdt_aliases = aliases,
    .uapi_struct = "struct pt_regs",
    .multiarch = "mips64el-linux-gnuabi64", .capstone_arch = CS_ARCH_MIPS, .capstone_mode = CS_MODE_MIPS64,
    .cpp_macros = "__mips__ __mips64 __MIPSEL__ __MIPSEL _MIPSEL __BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__",
};

}  // namespace rawprobe::arch
