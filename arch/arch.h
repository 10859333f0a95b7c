// Per-architecture facts as data (DESIGN.md: arch/ is data, not code). Every table is compiled
// on every host and found by ELF e_machine, so a binary of one architecture can be inspected
// on another. The tables describe the KERNEL's view of that architecture: the pt_regs a BPF
// program of type kprobe receives, and the syscall numbers of that architecture's kernel.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace rawprobe::arch {

// One pt_regs field: its name as the kernel's struct spells it, byte offset and byte size.
struct RegSlot {
  std::string_view name;
  uint16_t offset;
  uint8_t size;
};

// A register name as it appears in USDT argument specs or assembly (eax, r8b, w0, a0, fp)
// mapped to the pt_regs field that holds it, and which bits of that field it names.
struct RegAlias {
  std::string_view alias;
  std::string_view reg;  // RegSlot::name
  uint8_t width_bits;    // 8, 16, 32 or 64
  uint8_t bit_offset;    // 8 for ah/bh/ch/dh, else 0
};

struct Table {
  uint16_t e_machine;       // EM_X86_64, EM_AARCH64, ...
  uint8_t elf_class;        // ELFCLASS32 (1) or ELFCLASS64 (2)
  std::string_view name;    // "x86_64", "aarch64", ...
  long nr_bpf;              // syscall numbers on this architecture's kernel
  long nr_perf_event_open;
  uint16_t pt_regs_size;    // sizeof(struct pt_regs)
  std::span<const RegSlot> pt_regs;
  std::span<const std::string_view> arg_regs;  // function-call argument registers, in order
  std::string_view ret_reg;                    // return-value register
  std::string_view sp_reg, ip_reg, fp_reg;     // RegSlot names
  std::span<const RegAlias> usdt_aliases;      // includes every full-width name too
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
// Every table, for listing and tests.
std::span<const Table* const> all();

std::optional<RegSlot> find_slot(const Table& table, std::string_view name);
// Resolves a USDT/assembly register name (without '%' prefix) through the alias table.
std::optional<ResolvedReg> resolve_alias(const Table& table, std::string_view alias);

}  // namespace rawprobe::arch
