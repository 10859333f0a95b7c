// Functions whose first instruction the kernel's x86 uprobes refuse (a LOCK or segment
// prefix), against objdump -d on the host's libc: an exact name is refused exactly when
// objdump shows such a prefix, and a wildcard leaves those functions out.
#include "tests/unit/elf_test_support.h"

#include <elf.h>

#include <set>

#include "elf/binary.h"
#include "elf/hex.h"
#include "elf/resolve.h"
#include "elf/symbol_match.h"
#include "elf/uprobe_refusal.h"

namespace rawprobe::elf::test {
namespace {

// objdump's text of the first instruction at `address`: "lock decl (%rdi)".
std::string first_instruction(const std::string& path, uint64_t address) {
  std::string range = " --start-address=" + hex(address) + " --stop-address=" + hex(address + 15);
  for (const std::string& line : lines(run("objdump -d -w --no-show-raw-insn" + range + " '" + path + "'"))) {
    size_t tab = line.find(":\t");
    if (tab != std::string::npos) return line.substr(tab + 2);
  }
  return "";
}

bool objdump_says_refused(const std::string& insn) {
  for (const char* prefix : {"lock", "cs", "ds", "es", "ss"}) {
    std::string p(prefix);
    if (insn.rfind(p, 0) == 0 && (insn.size() == p.size() || insn[p.size()] == ' ')) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("uprobe_refusal: x86 LOCK and segment prefixes only, and only on x86") {
  const uint8_t lock_dec[] = {0xf0, 0xff, 0x0f};         // lock decl (%rdi)
  const uint8_t fs_mov[] = {0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0};  // mov %fs:0x28,%rax
  const uint8_t nop16[] = {0x66, 0x90};
  CHECK(uprobe_refusal(arch::by_machine(EM_X86_64, ELFCLASS64), lock_dec).value_or("").find("LOCK") != std::string::npos);
  CHECK_FALSE(uprobe_refusal(arch::by_machine(EM_X86_64, ELFCLASS64), fs_mov));
  CHECK_FALSE(uprobe_refusal(arch::by_machine(EM_X86_64, ELFCLASS64), nop16));
  CHECK_FALSE(uprobe_refusal(arch::by_machine(EM_AARCH64, ELFCLASS64), lock_dec));
}

TEST_CASE("libc: exact names are refused exactly where objdump shows a LOCK or segment prefix") {
  std::string libc = system_library("libc.so.6");
  auto binary = Binary::open(libc);
  REQUIRE(binary);
  auto table = binary->symbols();
  REQUIRE(table);
  std::vector<const Symbol*> functions = find_functions(**table, parse_symbol_query("pthread_*"));
  REQUIRE(!functions.empty());
  size_t refused = 0, checked = 0;
  std::set<std::string> refused_names, refused_versioned;
  std::set<uint64_t> seen;
  for (const Symbol* s : functions) {
    if (s->ifunc() || s->address == 0 || !seen.insert(s->address).second) continue;
    std::string insn = first_instruction(libc, s->address);
    auto site = resolve_function(*binary, s->versioned_name(), 0, {});
    INFO(s->versioned_name() << ": objdump: " << insn);
    bool expected = objdump_says_refused(insn);
    CHECK(!site == expected);
    if (!site) CHECK(site.error().message().find("refuse") != std::string::npos);
    if (expected) {
      ++refused;
      refused_names.insert(std::string(s->name));
      refused_versioned.insert(s->versioned_name());
    }
    ++checked;
  }
  MESSAGE(checked << " libc pthread_* functions compared with objdump, " << refused << " refused");
  // pthread_spin_lock begins with `lock decl (%rdi)` in glibc's x86_64 build.
  CHECK(refused_names.count("pthread_spin_lock") == 1);
  auto wildcard = resolve_function(*binary, "pthread_spin_*", 0, {});
  REQUIRE(wildcard);
  for (const UprobeSite& site : *wildcard) CHECK(refused_versioned.count(site.function) == 0);
}

}  // namespace rawprobe::elf::test
