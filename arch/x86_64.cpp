// x86_64: the kernel's struct pt_regs (arch/x86/include/asm/ptrace.h), which is also the uapi
// struct (with the pre-2.6.25 names rax, rbp, ...) and the layout every BPF kprobe/uprobe
// program sees on an x86_64 kernel, including for 32-bit processes (see the compat view).
#include <elf.h>

#include <capstone/capstone.h>

#include "arch/tables.h"
#include "arch/x86_names.h"

namespace rawprobe::arch {
namespace {

constexpr RegSlot slots[] = {
    {"r15", 0, 8},          {"r14", 8, 8},          {"r13", 16, 8},        {"r12", 24, 8},
    {"bp", 32, 8, "rbp"},   {"bx", 40, 8, "rbx"},   {"r11", 48, 8},        {"r10", 56, 8},
    {"r9", 64, 8},          {"r8", 72, 8},          {"ax", 80, 8, "rax"},  {"cx", 88, 8, "rcx"},
    {"dx", 96, 8, "rdx"},   {"si", 104, 8, "rsi"},  {"di", 112, 8, "rdi"},
    {"orig_ax", 120, 8, "orig_rax"},  // syscall number on syscall entry
    {"ip", 128, 8, "rip"},  {"cs", 136, 8},         {"flags", 144, 8, "eflags"},
    {"sp", 152, 8, "rsp"},  {"ss", 160, 8},
};

// System V AMD64 ABI, also the kernel's own calling convention.
constexpr std::string_view arg_regs[] = {"di", "si", "dx", "cx", "r8", "r9"};

// What only 64-bit code names: the 64-bit names, the REX byte registers and r8..r15.
constexpr RegAlias long_mode_aliases[] = {
    {"rax", "ax", 64, 0},   {"rbx", "bx", 64, 0},   {"rcx", "cx", 64, 0},   {"rdx", "dx", 64, 0},
    {"rsi", "si", 64, 0},   {"sil", "si", 8, 0},    {"rdi", "di", 64, 0},   {"dil", "di", 8, 0},
    {"rbp", "bp", 64, 0},   {"bpl", "bp", 8, 0},    {"rsp", "sp", 64, 0},   {"spl", "sp", 8, 0},
    {"r8", "r8", 64, 0},    {"r8d", "r8", 32, 0},   {"r8w", "r8", 16, 0},   {"r8b", "r8", 8, 0},
    {"r9", "r9", 64, 0},    {"r9d", "r9", 32, 0},   {"r9w", "r9", 16, 0},   {"r9b", "r9", 8, 0},
    {"r10", "r10", 64, 0},  {"r10d", "r10", 32, 0}, {"r10w", "r10", 16, 0}, {"r10b", "r10", 8, 0},
    {"r11", "r11", 64, 0},  {"r11d", "r11", 32, 0}, {"r11w", "r11", 16, 0}, {"r11b", "r11", 8, 0},
    {"r12", "r12", 64, 0},  {"r12d", "r12", 32, 0}, {"r12w", "r12", 16, 0}, {"r12b", "r12", 8, 0},
    {"r13", "r13", 64, 0},  {"r13d", "r13", 32, 0}, {"r13w", "r13", 16, 0}, {"r13b", "r13", 8, 0},
    {"r14", "r14", 64, 0},  {"r14d", "r14", 32, 0}, {"r14w", "r14", 16, 0}, {"r14b", "r14", 8, 0},
    {"r15", "r15", 64, 0},  {"r15d", "r15", 32, 0}, {"r15w", "r15", 16, 0}, {"r15b", "r15", 8, 0},
    {"rip", "ip", 64, 0},
};

constexpr auto aliases = join(x86_legacy_aliases, long_mode_aliases);

}  // namespace

constexpr Table x86_64_table = {
    .e_machine = EM_X86_64, .elf_class = ELFCLASS64, .name = "x86_64",
    .nr_bpf = 321, .nr_perf_event_open = 298,  // arch/x86/entry/syscalls/syscall_64.tbl
    .pt_regs_size = 168, .pt_regs = slots, .arg_regs = arg_regs, .ret_reg = "ax",
    .sp_reg = "sp", .ip_reg = "ip", .fp_reg = "bp", .usdt_aliases = aliases,
    .uapi_struct = "struct pt_regs",
    .stack_args_offset = 8, .stack_args = StackArgs::AfterRegisters, .multiarch = "x86_64-linux-gnu",
    .capstone_arch = CS_ARCH_X86, .capstone_mode = CS_MODE_64, .usdt_syntax = UsdtSyntax::X86,
    .plt_jump_slot_reloc = R_X86_64_JUMP_SLOT, .plt_glob_dat_reloc = R_X86_64_GLOB_DAT,
    .uprobe_refusal = UprobeRefusal::X86Prefixes,
    .cpp_macros = "__x86_64__ __x86_64 __amd64__ __amd64 __BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__",
};

// A 32-bit process (int 0x80 / ia32 compat) on an x86_64 kernel: the kernel saves its
// registers zero-extended into the same 64-bit struct pt_regs, so eax is the low half of ax
// at offset 80, and the BPF program's syscalls are the 64-bit kernel's. Its functions take
// their arguments on the stack (cdecl); no kernel function runs with its registers.
constexpr Table i386_on_x86_64_table = {
    .e_machine = EM_386, .elf_class = ELFCLASS32, .name = "i386-on-x86_64",
    .nr_bpf = x86_64_table.nr_bpf, .nr_perf_event_open = x86_64_table.nr_perf_event_open,
    .pt_regs_size = 168, .pt_regs = slots, .arg_regs = {}, .ret_reg = "ax",
    .sp_reg = "sp", .ip_reg = "ip", .fp_reg = "bp", .usdt_aliases = i386_aliases,
    .uapi_struct = "struct pt_regs", .stack_args_offset = i386_cdecl_first_arg,
    .stack_args = StackArgs::All, .multiarch = "i386-linux-gnu",
    .capstone_arch = CS_ARCH_X86, .capstone_mode = CS_MODE_32, .usdt_syntax = UsdtSyntax::X86,
    .uprobe_refusal = UprobeRefusal::X86Prefixes,
    .cpp_macros = "__i386__ __i386 i386 __ILP32__ __BYTE_ORDER__=__ORDER_LITTLE_ENDIAN__",
};

}  // namespace rawprobe::arch

// The host check: on an x86_64 build the table must match this machine's uapi headers. Kept
// last because <asm/ptrace.h> defines macros (R15, RIP, SS, ...) named like our slots.
#if defined(__x86_64__)
#include <asm/ptrace.h>
#include <sys/syscall.h>

#include <cstddef>

namespace rawprobe::arch {
namespace {
#define RAWPROBE_CHECK_SLOT(kernel_name, uapi_name)                           \
  static_assert(offsetof(::pt_regs, uapi_name) == slot_offset(slots, #kernel_name), \
                "x86_64 pt_regs slot " #kernel_name " disagrees with <asm/ptrace.h>")
RAWPROBE_CHECK_SLOT(r15, r15);
RAWPROBE_CHECK_SLOT(r14, r14);
RAWPROBE_CHECK_SLOT(r13, r13);
RAWPROBE_CHECK_SLOT(r12, r12);
RAWPROBE_CHECK_SLOT(bp, rbp);
RAWPROBE_CHECK_SLOT(bx, rbx);
RAWPROBE_CHECK_SLOT(r11, r11);
RAWPROBE_CHECK_SLOT(r10, r10);
RAWPROBE_CHECK_SLOT(r9, r9);
RAWPROBE_CHECK_SLOT(r8, r8);
RAWPROBE_CHECK_SLOT(ax, rax);
RAWPROBE_CHECK_SLOT(cx, rcx);
RAWPROBE_CHECK_SLOT(dx, rdx);
RAWPROBE_CHECK_SLOT(si, rsi);
RAWPROBE_CHECK_SLOT(di, rdi);
RAWPROBE_CHECK_SLOT(orig_ax, orig_rax);
RAWPROBE_CHECK_SLOT(ip, rip);
RAWPROBE_CHECK_SLOT(cs, cs);
RAWPROBE_CHECK_SLOT(flags, eflags);
RAWPROBE_CHECK_SLOT(sp, rsp);
RAWPROBE_CHECK_SLOT(ss, ss);
#undef RAWPROBE_CHECK_SLOT
static_assert(std::size(slots) == 21, "every field of <asm/ptrace.h>'s pt_regs is checked above");
static_assert(sizeof(::pt_regs) == x86_64_table.pt_regs_size, "x86_64 pt_regs size");
static_assert(__NR_bpf == x86_64_table.nr_bpf, "x86_64 bpf syscall number");
static_assert(__NR_perf_event_open == x86_64_table.nr_perf_event_open,
              "x86_64 perf_event_open syscall number");
static_assert(__NR_fsopen == x86_64_table.nr_unified(430), "x86_64 fsopen syscall number");
}  // namespace
}  // namespace rawprobe::arch
#endif
