// riscv64: the kernel's struct pt_regs (arch/riscv/include/asm/ptrace.h) begins with the
// fields of the uapi struct user_regs_struct (epc first, named pc in uapi, then x1..x31 by ABI
// name); status, badaddr, cause and orig_a0 follow and are not described. x0 (zero) is
// hardwired and not saved: offset 0 holds the pc, so "zero"/"x0" have no slot.
#include <elf.h>

#include "arch/tables.h"

namespace rawprobe::arch {
namespace {

constexpr RegSlot slots[] = {
    {"epc", 0, 8, "pc"}, {"ra", 8, 8},   {"sp", 16, 8},   {"gp", 24, 8},   {"tp", 32, 8},
    {"t0", 40, 8},     {"t1", 48, 8},    {"t2", 56, 8},   {"s0", 64, 8},   {"s1", 72, 8},
    {"a0", 80, 8},     {"a1", 88, 8},    {"a2", 96, 8},   {"a3", 104, 8},  {"a4", 112, 8},
    {"a5", 120, 8},    {"a6", 128, 8},   {"a7", 136, 8},  {"s2", 144, 8},  {"s3", 152, 8},
    {"s4", 160, 8},    {"s5", 168, 8},   {"s6", 176, 8},  {"s7", 184, 8},  {"s8", 192, 8},
    {"s9", 200, 8},    {"s10", 208, 8},  {"s11", 216, 8}, {"t3", 224, 8},  {"t4", 232, 8},
    {"t5", 240, 8},    {"t6", 248, 8},
};

// RISC-V psABI: a0..a7 carry arguments, a0 the result; s0 doubles as the frame pointer.
constexpr std::string_view arg_regs[] = {"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"};

// ABI names, their xN numbers, and fp (= s0).
constexpr RegAlias aliases[] = {
    {"ra", "ra", 64, 0},   {"sp", "sp", 64, 0},   {"gp", "gp", 64, 0},   {"tp", "tp", 64, 0},
    {"t0", "t0", 64, 0},   {"t1", "t1", 64, 0},   {"t2", "t2", 64, 0},   {"s0", "s0", 64, 0},
    {"fp", "s0", 64, 0},   {"s1", "s1", 64, 0},   {"a0", "a0", 64, 0},   {"a1", "a1", 64, 0},
    {"a2", "a2", 64, 0},   {"a3", "a3", 64, 0},   {"a4", "a4", 64, 0},   {"a5", "a5", 64, 0},
    {"a6", "a6", 64, 0},   {"a7", "a7", 64, 0},   {"s2", "s2", 64, 0},   {"s3", "s3", 64, 0},
    {"s4", "s4", 64, 0},   {"s5", "s5", 64, 0},   {"s6", "s6", 64, 0},   {"s7", "s7", 64, 0},
    {"s8", "s8", 64, 0},   {"s9", "s9", 64, 0},   {"s10", "s10", 64, 0}, {"s11", "s11", 64, 0},
    {"t3", "t3", 64, 0},   {"t4", "t4", 64, 0},   {"t5", "t5", 64, 0},   {"t6", "t6", 64, 0},
    {"x1", "ra", 64, 0},   {"x2", "sp", 64, 0},   {"x3", "gp", 64, 0},   {"x4", "tp", 64, 0},
    {"x5", "t0", 64, 0},   {"x6", "t1", 64, 0},   {"x7", "t2", 64, 0},   {"x8", "s0", 64, 0},
    {"x9", "s1", 64, 0},   {"x10", "a0", 64, 0},  {"x11", "a1", 64, 0},  {"x12", "a2", 64, 0},
    {"x13", "a3", 64, 0},  {"x14", "a4", 64, 0},  {"x15", "a5", 64, 0},  {"x16", "a6", 64, 0},
    {"x17", "a7", 64, 0},  {"x18", "s2", 64, 0},  {"x19", "s3", 64, 0},  {"x20", "s4", 64, 0},
    {"x21", "s5", 64, 0},  {"x22", "s6", 64, 0},  {"x23", "s7", 64, 0},  {"x24", "s8", 64, 0},
    {"x25", "s9", 64, 0},  {"x26", "s10", 64, 0}, {"x27", "s11", 64, 0}, {"x28", "t3", 64, 0},
    {"x29", "t4", 64, 0},  {"x30", "t5", 64, 0},  {"x31", "t6", 64, 0},
};

}  // namespace

constexpr Table riscv64_table = {
    .e_machine = EM_RISCV, .elf_class = ELFCLASS64, .name = "riscv64",
    .nr_bpf = 280, .nr_perf_event_open = 241,  // include/uapi/asm-generic/unistd.h
    .pt_regs_size = 256, .pt_regs = slots, .arg_regs = arg_regs, .ret_reg = "a0",
    .sp_reg = "sp", .ip_reg = "epc", .fp_reg = "s0", .usdt_aliases = aliases,
    .uapi_struct = "struct user_regs_struct",
    .multiarch = "riscv64-linux-gnu",
    .cpp_macros = "__riscv __riscv_xlen=64 __CHAR_UNSIGNED__ __BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__",
};

}  // namespace rawprobe::arch
