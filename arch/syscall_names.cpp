#include "arch/syscall_names.h"

#include <elf.h>

#include <algorithm>
#include <span>

namespace rawprobe::arch {

namespace {

struct SyscallRow {
  uint64_t nr;
  std::string_view name;
};

constexpr SyscallRow kX86_64[] = {
#include "arch/syscall_names_x86_64.inc"
};

// x86_64 only so far; the other architectures' names would come from their headers the same
// way (asm-generic's unistd.h for aarch64 and riscv64 needs its #if arms resolved first).
std::span<const SyscallRow> rows_for(const Table& t) {
  if (t.e_machine == EM_X86_64) return kX86_64;
  return {};
}

}  // namespace

std::string_view syscall_name(const Table& table, uint64_t nr) {
  std::span<const SyscallRow> rows = rows_for(table);
  // The headers list the numbers in ascending order.
  auto it = std::lower_bound(rows.begin(), rows.end(), nr, [](const SyscallRow& r, uint64_t n) { return r.nr < n; });
  return it != rows.end() && it->nr == nr ? it->name : std::string_view{};
}

}  // namespace rawprobe::arch
