// i386: a 32-bit x86 KERNEL's struct pt_regs (arch/x86/include/asm/ptrace.h, !CONFIG_X86_64),
// laid out as the uapi struct with its old names (ebx, xds, orig_eax, ...).
//
// Which table a 32-bit process gets: this one describes what a BPF program sees on a 32-bit
// kernel. A 32-bit process on an x86_64 kernel is different: its registers are saved into
// the 64-bit pt_regs, so for_process(i386, x86_64) returns the compat view defined in
// x86_64.cpp, with these same register names on the 64-bit slots.
//
// The kernel names the segment fields ds/es/fs/gs/cs/ss as a u16 followed by a u16 of padding
// (__dsh, ...); the uapi spells each as one int. The slots take the uapi's 4 bytes, whose
// upper half is that padding.
#include <elf.h>

#include <capstone/capstone.h>

#include "arch/tables.h"
#include "arch/x86_names.h"

namespace rawprobe::arch {
namespace {

constexpr RegSlot slots[] = {
    {"bx", 0, 4, "ebx"},   {"cx", 4, 4, "ecx"},   {"dx", 8, 4, "edx"},
    {"si", 12, 4, "esi"},  {"di", 16, 4, "edi"},  {"bp", 20, 4, "ebp"},
    {"ax", 24, 4, "eax"},  {"ds", 28, 4, "xds"},  {"es", 32, 4, "xes"},
    {"fs", 36, 4, "xfs"},  {"gs", 40, 4, "xgs"},
    {"orig_ax", 44, 4, "orig_eax"},  // syscall number on syscall entry
    {"ip", 48, 4, "eip"},  {"cs", 52, 4, "xcs"},  {"flags", 56, 4, "eflags"},
    {"sp", 60, 4, "esp"},  {"ss", 64, 4, "xss"},
};

// The kernel is built with -mregparm=3 (arch/x86/Makefile), so kernel functions take their
// first three arguments in eax, edx, ecx. User functions (cdecl) take them on the stack.
constexpr std::string_view arg_regs[] = {"ax", "dx", "cx"};

}  // namespace

constexpr Table i386_table = {
    .e_machine = EM_386, .elf_class = ELFCLASS32, .name = "i386",
    .nr_bpf = 357, .nr_perf_event_open = 336,  // arch/x86/entry/syscalls/syscall_32.tbl
    .pt_regs_size = 68, .pt_regs = slots, .arg_regs = arg_regs, .ret_reg = "ax",
    .sp_reg = "sp", .ip_reg = "ip", .fp_reg = "bp", .usdt_aliases = i386_aliases,
    .uapi_struct = "struct pt_regs", .stack_args_offset = i386_cdecl_first_arg,
    .stack_args = StackArgs::All, .multiarch = "i386-linux-gnu",
    .capstone_arch = CS_ARCH_X86, .capstone_mode = CS_MODE_32, .usdt_syntax = UsdtSyntax::X86,
    .uprobe_refusal = UprobeRefusal::X86Prefixes,
};

}  // namespace rawprobe::arch
