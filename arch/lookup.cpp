// Finding tables: by ELF e_machine and class, by a user-typed name, the host's, and the
// compat view for a 32-bit process on a 64-bit kernel.
#include <array>

#include "arch/tables.h"

namespace rawprobe::arch {
namespace {

constexpr std::array<const Table*, 9> tables = {
    &x86_64_table,  &i386_table,  &aarch64_table, &arm_table,         &riscv64_table,
    &ppc64le_table, &s390x_table, &mips64_table,  &loongarch64_table,
};

// Other spellings users and tools (uname -m, Debian, Go, LLVM) use for the same tables.
struct Synonym {
  std::string_view name;
  const Table* table;
};
constexpr Synonym synonyms[] = {
    {"amd64", &x86_64_table},      {"x86-64", &x86_64_table},     {"x64", &x86_64_table},
    {"i686", &i386_table},         {"i586", &i386_table},         {"x86", &i386_table},
    {"arm64", &aarch64_table},     {"armhf", &arm_table},         {"armv7l", &arm_table},
    {"armel", &arm_table},         {"riscv", &riscv64_table},     {"ppc64", &ppc64le_table},
    {"ppc64el", &ppc64le_table},   {"powerpc64le", &ppc64le_table},
    {"powerpc64", &ppc64le_table}, {"mips64el", &mips64_table},   {"loong64", &loongarch64_table},
};

}  // namespace

const Table* by_machine(uint16_t e_machine, uint8_t elf_class) {
  for (const Table* table : tables)
    if (table->e_machine == e_machine && table->elf_class == elf_class) return table;
  return nullptr;
}

const Table* by_name(std::string_view name) {
  for (const Table* table : tables)
    if (table->name == name) return table;
  for (const Synonym& synonym : synonyms)
    if (synonym.name == name) return synonym.table;
  return nullptr;
}

const Table& host() {
#if defined(__x86_64__)
  return x86_64_table;
#elif defined(__i386__)
  return i386_table;
#elif defined(__aarch64__)
  return aarch64_table;
#elif defined(__arm__)
  return arm_table;
#elif defined(__riscv) && __riscv_xlen == 64
  return riscv64_table;
#elif defined(__powerpc64__)
  return ppc64le_table;
#elif defined(__s390x__)
  return s390x_table;
#elif defined(__mips64)
  return mips64_table;
#elif defined(__loongarch64)
  return loongarch64_table;
#else
#error "rawprobe has no arch/ table for this host architecture"
#endif
}

std::span<const Table* const> all() { return tables; }

const Table* for_process(const Table& binary, const Table& kernel) {
  if (&binary == &kernel) return &binary;
  if (&binary == &i386_table && &kernel == &x86_64_table) return &i386_on_x86_64_table;
  if (&binary == &arm_table && &kernel == &aarch64_table) return &arm_on_aarch64_table;
  return nullptr;
}

std::optional<RegSlot> find_slot(const Table& table, std::string_view name) {
  for (const RegSlot& slot : table.pt_regs)
    if (slot.name == name) return slot;
  return std::nullopt;
}

std::optional<ResolvedReg> resolve_alias(const Table& table, std::string_view alias) {
  for (const RegAlias& entry : table.usdt_aliases) {
    if (entry.alias != alias) continue;
    std::optional<RegSlot> slot = find_slot(table, entry.reg);
    if (!slot) return std::nullopt;  // the tests guarantee every alias names a slot
    return ResolvedReg{*slot, entry.width_bits, entry.bit_offset};
  }
  return std::nullopt;
}

std::optional<RegSlot> find_register(const Table& table, std::string_view name) {
  if (std::optional<RegSlot> slot = find_slot(table, name)) return slot;
  std::optional<ResolvedReg> alias = resolve_alias(table, name);
  if (alias && alias->bit_offset == 0 && alias->width_bits == alias->slot.size * 8) return alias->slot;
  return std::nullopt;
}

std::string register_names(const Table& table) {
  std::string names;
  for (const RegSlot& slot : table.pt_regs) names += (names.empty() ? "" : ", ") + std::string(slot.name);
  return names;
}

}  // namespace rawprobe::arch
