// Per-architecture facts as data (DESIGN.md: arch/ is data, not code). Every table is compiled
// on every host and found by ELF e_machine, so a binary of one architecture can be inspected
// on another. The tables describe the KERNEL's view of that architecture: the pt_regs a BPF
// program of type kprobe receives, and the syscall numbers of that architecture's kernel.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace rawprobe::arch {

// One pt_regs field: its name as the kernel's struct spells it, byte offset and byte size.
// Array elements are named as C member designators ("regs[4]", "psw.addr"), so a name can be
// put straight into offsetof() by the tests that check the tables against kernel headers.
struct RegSlot {
  std::string_view name;
  uint16_t offset;
  uint8_t size;
  // The same field's designator in Table::uapi_struct when the uapi header spells it
  // differently ("rbp" for the kernel's "bp"); empty when it is the same as name.
  std::string_view uapi_name = {};
  // The field exists only in the kernel-internal struct pt_regs, which no uapi header
  // publishes (s390 orig_gpr2, mips cp0_epc): its offset is cited from the kernel source.
  bool kernel_only = false;
};

// A register name as it appears in USDT argument specs or assembly (eax, r8b, w0, a0, fp)
// mapped to the pt_regs field that holds it, and which bits of that field it names.
struct RegAlias {
  std::string_view alias;
  std::string_view reg;  // RegSlot::name
  uint8_t width_bits;    // 8, 16, 32 or 64
  uint8_t bit_offset;    // 8 for ah/bh/ch/dh, else 0
};

// Which of a function's arguments rawprobe reads from the stack (Table::stack_args_offset).
enum class StackArgs : uint8_t {
  Unknown,         // none: argN past arg_regs is refused
  AfterRegisters,  // those past arg_regs
  All,             // every one (i386 cdecl)
};

// The assembler syntax of an architecture's USDT operands; elf/usdt_operand.h has a parser
// for each.
enum class UsdtSyntax : uint8_t {
  X86,         // AT&T (x86_64, i386)
  Aarch64,
  Arm,
  OffsetBase,  // the "off(reg)" families: riscv64, s390x, ppc64le, mips64, loongarch64
};

// How the "off(reg)" USDT operand families spell registers and constants, where they differ:
//   s390x        "%r2", "8(%r1,%r2)" (D(X,B): index X, base B)
//   ppc64le      "%r3" or a bare "3" for r3, constants marked "i5"
//   loongarch64  "$r22,-20" (base, offset) besides "-20($r22)"
struct OffsetBaseSyntax {
  bool percent_registers = false;   // a register may carry a leading '%'
  bool numbered_registers = false;  // a bare number is a register; constants carry 'i'
  bool index_base = false;          // "off(index,base)"
  bool base_comma_offset = false;   // "base,off"
};

// The instructions the kernel's uprobes refuse, as far as rawprobe predicts them before the
// attach (elf/uprobe_refusal.h).
enum class UprobeRefusal : uint8_t {
  None,
  X86Prefixes,  // LOCK and ES/CS/SS/DS prefixes (arch/x86/kernel/uprobes.c, is_prefix_bad)
};

struct Table {
  uint16_t e_machine;       // EM_X86_64, EM_AARCH64, ...
  uint8_t elf_class;        // ELFCLASS32 (1) or ELFCLASS64 (2)
  std::string_view name;    // "x86_64", "aarch64", ...
  long nr_bpf;              // syscall numbers on this architecture's kernel
  long nr_perf_event_open;
  // Syscalls added since Linux 5.1 (424 on) have one number on every architecture, plus the
  // ABI's base where it has one (mips n64: 5000). nr_unified(430) is fsopen everywhere.
  long nr_unified_base = 0;
  constexpr long nr_unified(long generic) const { return nr_unified_base + generic; }
  // sizeof(struct pt_regs) where the whole struct is stable uapi (x86, arm); where the kernel
  // appends internal fields that change between versions and configs (aarch64, riscv, ppc64,
  // s390, mips, loongarch), the size of the stable prefix this table describes: a BPF program
  // never needs to read past it.
  uint16_t pt_regs_size;
  std::span<const RegSlot> pt_regs;
  std::span<const std::string_view> arg_regs;  // function-call argument registers, in order
  std::string_view ret_reg;                    // return-value register
  std::string_view sp_reg, ip_reg, fp_reg;     // RegSlot names
  std::span<const RegAlias> usdt_aliases;      // includes every full-width name too
  // The uapi type whose layout the pt_regs slots are checked against ("struct pt_regs",
  // "struct user_pt_regs", ...): the published part of the kernel's struct.
  std::string_view uapi_struct = {};
  // Where a user-space function finds the arguments it takes on the stack, at its entry:
  // argument N (counted from the first stacked one) at sp + stack_args_offset + N * word size.
  //   x86_64   past the 6 registers, after the return address:   8 + 8 * (N - 6)
  //   aarch64  past the 8 registers:                              8 * (N - 8)
  //   i386     cdecl, every argument, after the return address:   4 + 4 * N; arg_regs then
  //            lists only what kernel functions use (i386 kernels are built with -mregparm=3)
  uint8_t stack_args_offset = 0;
  StackArgs stack_args = StackArgs::Unknown;
  // Debian's multiarch triplet, naming the library directories /lib/<triplet> and
  // /usr/lib/<triplet>.
  std::string_view multiarch = {};
  // The instruction-boundary check's disassembler: Capstone's cs_arch and cs_mode (the
  // endianness bits come from the ELF header), or capstone_arch -1 where Capstone has none and
  // instruction lengths are read off the encoding: fixed_insn_size 4 (loongarch), or 0 for
  // riscv's length encoding (2-byte compressed, else 4).
  int capstone_arch = -1;
  int capstone_mode = 0;
  uint8_t fixed_insn_size = 0;
  // $a/$t/$x/$d symbols mark where code and literal-pool data lie (arm, aarch64 ELF ABIs).
  bool mapping_symbols = false;
  // The operand syntax of the assembler that wrote USDT argument specs.
  UsdtSyntax usdt_syntax = UsdtSyntax::OffsetBase;
  // The dynamic relocations that fill a GOT slot a PLT stub jumps through (R_*_JUMP_SLOT,
  // R_*_GLOB_DAT); 0 where rawprobe does not name PLT stubs.
  uint32_t plt_jump_slot_reloc = 0;
  uint32_t plt_glob_dat_reloc = 0;
  // Bit 0 of a function symbol's value marks Thumb code (the ARM ELF ABI); the code starts at
  // the value with that bit clear.
  bool thumb_symbols = false;
  UprobeRefusal uprobe_refusal = UprobeRefusal::None;
  OffsetBaseSyntax offset_base = {};  // usdt_syntax OffsetBase only
  // What gcc predefines for this architecture that headers test, as `NAME` (1) or
  // `NAME=VALUE`, separated by spaces: the script preprocessor defines them (what every Linux
  // target has, __linux__, __LP64__, ..., is added there). Checked against each cross gcc's
  // `cpp -dM` in tests/unit/lang_preprocess_oracle_test.cpp.
  std::string_view cpp_macros = {};
};

// The register an alias names, resolved to its pt_regs slot.
struct ResolvedReg {
  RegSlot slot;
  uint8_t width_bits;
  uint8_t bit_offset;
};

// Table for an ELF e_machine and class; nullptr for an architecture we do not know.
const Table* by_machine(uint16_t e_machine, uint8_t elf_class);
// Table for a name as users type it ("x86_64", "arm64" is accepted for aarch64).
const Table* by_name(std::string_view name);
// Table of the architecture this binary was built for.
const Table& host();
// Every table, for listing and tests (the compat views of for_process are not in it).
std::span<const Table* const> all();

// The table for a process of `binary`'s architecture traced on a kernel of `kernel`'s. The
// kernel decides the pt_regs layout and the syscall numbers; the binary decides the register
// names in its USDT notes and its calling convention. Same architecture: `binary` itself. A
// 32-bit process on its 64-bit kernel (i386 on x86_64, arm on aarch64): a compat view with the
// 64-bit kernel's pt_regs and syscalls and the 32-bit names mapped onto the 64-bit slots.
// nullptr when that kernel cannot run that binary.
const Table* for_process(const Table& binary, const Table& kernel);

std::optional<RegSlot> find_slot(const Table& table, std::string_view name);
// Resolves a USDT/assembly register name (without '%' prefix) through the alias table.
std::optional<ResolvedReg> resolve_alias(const Table& table, std::string_view alias);
// A whole register as a script's reg("name") names it: its pt_regs field name ("ip", "regs[3]")
// or an assembler name for all of that field ("rip", "x3"); never a part of one ("eax", "w3").
std::optional<RegSlot> find_register(const Table& table, std::string_view name);
// The names find_register accepts, comma-separated, for an error that lists them.
std::string register_names(const Table& table);

}  // namespace rawprobe::arch
