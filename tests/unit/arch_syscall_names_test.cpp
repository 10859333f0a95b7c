// syscall_name()'s table (arch/syscall_names.cpp) against the kernel's uapi header it was made
// from: the compiler, reading <asm/unistd_64.h>, must agree that each __NR_<name> is the number
// the table gives, and the table must hold every syscall the header defines.
#include <doctest/doctest.h>

#include <elf.h>

#include <fstream>
#include <regex>

#include "arch/arch.h"
#include "arch/syscall_names.h"
#include "tests/unit/arch_oracle.h"

using namespace rawprobe;

TEST_CASE("arch: x86_64 syscall names match <asm/unistd_64.h> as gcc reads it") {
  const arch::Table* x86_64 = arch::by_machine(EM_X86_64, ELFCLASS64);
  REQUIRE(x86_64);
  const std::string header = "/usr/include/x86_64-linux-gnu/asm/unistd_64.h";
  std::ifstream in(header);
  REQUIRE_MESSAGE(in, header << " is missing: install linux-libc-dev");
  size_t defined = 0;
  std::regex define(R"(^#define __NR_\w+\s+\d+\s*$)");
  for (std::string line; std::getline(in, line);)
    if (std::regex_match(line, define)) ++defined;

  test::ScratchDir dir;
  std::string c = (dir.path() / "names.c").string();
  std::ofstream src(c);
  src << "#include <asm/unistd_64.h>\n";
  size_t named = 0;
  for (uint64_t nr = 0; nr < 4096; ++nr) {
    std::string_view name = arch::syscall_name(*x86_64, nr);
    if (name.empty()) continue;
    ++named;
    src << "_Static_assert(__NR_" << name << " == " << nr << ", \"" << name << "\");\n";
  }
  src.close();
  CHECK(named == defined);
  CHECK(named > 300);
  test::CommandResult cc = test::run_command("gcc -fsyntax-only " + c);
  CHECK_MESSAGE(cc.status == 0, cc.output);
  // A number the table lacks has no name.
  CHECK(arch::syscall_name(*x86_64, 100000).empty());
  CHECK(arch::syscall_name(*arch::by_machine(EM_AARCH64, ELFCLASS64), 0).empty());
}
