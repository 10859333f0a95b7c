// s390x: the kernel's struct pt_regs (arch/s390/include/asm/ptrace.h) is NOT the uapi struct
// pt_regs. The kernel's starts with user_pt_regs { args[1]; psw_t psw; gprs[16]; } (the uapi
// typedef made for BPF, which libbpf's bpf_tracing.h casts a kprobe context to) and then has
// orig_gpr2, int_code/int_parm, flags, cr1, last_break. The uapi struct pt_regs puts acrs[16]
// and orig_gpr2 after gprs instead, so its orig_gpr2 is 64 bytes further on. So the slots are
// checked against user_pt_regs, and orig_gpr2 (right after it in the kernel's struct, unchanged
// since Linux 2.6) is kernel-internal.
#include <elf.h>

#include <capstone/capstone.h>

#include "arch/tables.h"

namespace rawprobe::arch {
namespace {

constexpr RegSlot slots[] = {
    {"args[0]", 0, 8},     {"psw.mask", 8, 8},    {"psw.addr", 16, 8},
    {"gprs[0]", 24, 8}, {"gprs[1]", 32, 8}, {"gprs[2]", 40, 8}, {"gprs[3]", 48, 8},
    {"gprs[4]", 56, 8}, {"gprs[5]", 64, 8}, {"gprs[6]", 72, 8}, {"gprs[7]", 80, 8},
    {"gprs[8]", 88, 8}, {"gprs[9]", 96, 8}, {"gprs[10]", 104, 8}, {"gprs[11]", 112, 8},
    {"gprs[12]", 120, 8}, {"gprs[13]", 128, 8}, {"gprs[14]", 136, 8}, {"gprs[15]", 144, 8},
    {"orig_gpr2", 152, 8, {}, true},  // first argument as the syscall entered
};

// s390x ELF ABI: r2..r6 carry arguments, r2 the result, r15 is the stack pointer, r11 the
// frame pointer when one is kept; r14 holds the return address.
constexpr std::string_view arg_regs[] = {"gprs[2]", "gprs[3]", "gprs[4]", "gprs[5]", "gprs[6]"};

// USDT operands name general registers as %r0..%r15 (given here without the '%').
constexpr RegAlias aliases[] = {
    {"r0", "gprs[0]", 64, 0}, {"r1", "gprs[1]", 64, 0}, {"r2", "gprs[2]", 64, 0}, {"r3", "gprs[3]", 64, 0},
    {"r4", "gprs[4]", 64, 0}, {"r5", "gprs[5]", 64, 0}, {"r6", "gprs[6]", 64, 0}, {"r7", "gprs[7]", 64, 0},
    {"r8", "gprs[8]", 64, 0}, {"r9", "gprs[9]", 64, 0}, {"r10", "gprs[10]", 64, 0}, {"r11", "gprs[11]", 64, 0},
    {"r12", "gprs[12]", 64, 0}, {"r13", "gprs[13]", 64, 0}, {"r14", "gprs[14]", 64, 0}, {"r15", "gprs[15]", 64, 0},
};

}  // namespace

constexpr Table s390x_table = {
    .e_machine = EM_S390, .elf_class = ELFCLASS64, .name = "s390x",
    .nr_bpf = 351, .nr_perf_event_open = 331,  // arch/s390/kernel/syscalls/syscall.tbl
    .pt_regs_size = 160, .pt_regs = slots, .arg_regs = arg_regs, .ret_reg = "gprs[2]",
    .sp_reg = "gprs[15]", .ip_reg = "psw.addr", .fp_reg = "gprs[11]", .usdt_aliases = aliases,
    .uapi_struct = "user_pt_regs",
    .multiarch = "s390x-linux-gnu", .capstone_arch = CS_ARCH_SYSZ, .capstone_mode = CS_MODE_BIG_ENDIAN,
    .offset_base = {.percent_registers = true, .index_base = true},
};

}  // namespace rawprobe::arch
