// The decoded meaning -lv and --explain print for USDT arguments, checked against an account
// built here from scratch: the argument strings come from `readelf -n` of real notes (our
// samples for x86_64, aarch64, arm Thumb and A32, the seed's hello_usdt, python3.11), each is
// read by the test's own pattern for its form, and register offsets come from the arch/
// tables (checked against every architecture's <asm/ptrace.h> by arch_layout_test) and, for
// this host's x86_64, from offsetof on <asm/ptrace.h> directly.
#include "tests/unit/elf_test_support.h"

#include <elf.h>
#include <unistd.h>

#include <map>
#include <set>

#include "arch/arch.h"
#include "elf/binary.h"
#include "elf/usdt_describe.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;
namespace arch = rawprobe::arch;

namespace {

// Every distinct "Arguments:" string of `readelf -n`.
std::set<std::string> readelf_argument_strings(const std::string& path) {
  std::set<std::string> out;
  for (const std::string& line : lines(run("readelf -n '" + path + "'"))) {
    size_t at = line.find("Arguments: ");
    if (at != std::string::npos) out.insert(line.substr(at + 11));
  }
  return out;
}

std::vector<std::string> split_spaces(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) {
    // aarch64 writes "[x0, 8]": the part after the comma belongs to the same operand.
    if (!out.empty() && std::count(out.back().begin(), out.back().end(), '[') >
                            std::count(out.back().begin(), out.back().end(), ']'))
      out.back() += " " + w;
    else
      out.push_back(w);
  }
  return out;
}

std::string reg(const arch::Table& table, const std::string& name) {
  auto r = arch::resolve_alias(table, name);
  REQUIRE_MESSAGE(r, table.name << " has no register " << name);
  std::string slot = "pt_regs+" + std::to_string(r->slot.offset);
  if (r->bit_offset)
    slot = "bits " + std::to_string(r->bit_offset) + "-" + std::to_string(r->bit_offset + r->width_bits - 1) + " of " + slot;
  return name + " (" + slot + ")";
}

std::string plus(long long v) {
  if (v == 0) return "";
  return v > 0 ? " + " + std::to_string(v) : " - " + std::to_string(-v);
}

// The test's own reading of one operand of the forms gcc emits on each architecture.
std::string expected_meaning(const std::string& spec, const arch::Table& table, const std::string& path) {
  size_t at = spec.find('@');
  long long size = std::stoll(spec.substr(0, at));
  std::string op = spec.substr(at + 1);
  std::string type = std::string(size < 0 ? "signed " : "unsigned ") + std::to_string(std::llabs(size) * 8) + "-bit, ";
  std::smatch m;
  auto num = [](const std::string& s) { return s.empty() ? 0LL : std::stoll(s, nullptr, 0); };
  auto symbol = [&](const std::string& name) {
    std::string nm = run("nm '" + path + "' | awk '$3 == \"" + name + "\" {print $1; exit}'");
    REQUIRE_MESSAGE(!nm.empty(), "nm has no " << name);
    char hex[32];
    snprintf(hex, sizeof hex, "0x%llx", std::stoull(nm, nullptr, 16));
    return name + " (link-time " + hex + " + load bias)";
  };
  if (table.e_machine == EM_X86_64) {
    if (std::regex_match(op, m, std::regex(R"(\$(-?\w+))"))) return type + "constant " + std::to_string(num(m[1]));
    if (std::regex_match(op, m, std::regex(R"(%(\w+))"))) return type + "register " + reg(table, m[1]);
    if (std::regex_match(op, m, std::regex(R"((-?\d*)\(%(\w+)\))")))
      return type + "memory at " + reg(table, m[2]) + plus(num(m[1]));
    // [sym][+-off](%base,%index,scale) and (,%index,scale) without a base.
    if (std::regex_match(op, m, std::regex(R"(([A-Za-z_]\w*)?([+-]?\d*)\((%\w+)?,%(\w+),(\d)\))")))
      return type + "memory at " + (m[3].matched ? reg(table, m[3].str().substr(1)) + " + " : "") +
             reg(table, m[4]) + (m[5] == "1" ? "" : "*" + m[5].str()) +
             (m[1].matched ? " + " + symbol(m[1]) : "") + plus(num(m[2]));
    if (std::regex_match(op, m, std::regex(R"(([A-Za-z_]\w*)([+-]\d+)?\(%rip\))")))
      return type + "memory at " + symbol(m[1]) + plus(num(m[2]));
  } else if (table.e_machine == EM_AARCH64) {
    if (std::regex_match(op, m, std::regex(R"(-?\d+)"))) return type + "constant " + op;
    if (std::regex_match(op, m, std::regex(R"([xw]\d+|sp)"))) return type + "register " + reg(table, op);
    if (std::regex_match(op, m, std::regex(R"(\[(\w+)(, (-?\d+))?\])")))
      return type + "memory at " + reg(table, m[1]) + plus(num(m[3]));
  } else if (table.e_machine == EM_ARM) {
    if (std::regex_match(op, m, std::regex(R"(#(-?\d+))"))) return type + "constant " + m[1].str();
    if (std::regex_match(op, m, std::regex(R"(\w+)"))) return type + "register " + reg(table, op);
    if (std::regex_match(op, m, std::regex(R"(\[(\w+)(, #(-?\d+))?\])")))
      return type + "memory at " + reg(table, m[1]) + plus(num(m[3]));
  }
  FAIL("the test has no pattern for '" << spec << "' on " << table.name);
  return {};
}

struct Sample {
  std::string path;
  uint16_t machine;
};

}  // namespace

TEST_CASE("decoded USDT arguments of real notes say what the spec means, with pt_regs offsets") {
  std::vector<Sample> samples = {
      {seed_sample("hello_usdt"), EM_X86_64},           {elf_sample("usdt_args_O0"), EM_X86_64},
      {elf_sample("usdt_args_O2"), EM_X86_64},          {elf_sample("usdt_args_nopie"), EM_X86_64},
      {elf_sample("usdt_args_aarch64"), EM_AARCH64},    {elf_sample("usdt_args_arm"), EM_ARM},
      {elf_sample("usdt_args_a32"), EM_ARM},            {"/usr/bin/python3.11", EM_X86_64}};
  std::map<std::string, size_t> forms;  // which forms were seen, to show the coverage
  for (const Sample& s : samples) {
    CAPTURE(s.path);
    REQUIRE_MESSAGE(access(s.path.c_str(), R_OK) == 0, "missing " << s.path << " (make elf-samples; python3.11 package)");
    auto file = ElfFile::open(s.path);
    REQUIRE(file);
    REQUIRE(file->machine() == s.machine);
    const arch::Table* table = arch::by_machine(file->machine(), file->elf_class());
    REQUIRE(table);
    std::set<std::string> strings = readelf_argument_strings(s.path);
    REQUIRE_FALSE(strings.empty());
    for (const std::string& args : strings) {
      std::vector<std::string> ours = describe_usdt_args(*file, args);
      std::vector<std::string> specs = split_spaces(args);
      REQUIRE(ours.size() == specs.size());
      for (size_t i = 0; i < specs.size(); ++i) {
        std::string want = "arg" + std::to_string(i) + ": " + specs[i] + "  " + expected_meaning(specs[i], *table, s.path);
        CHECK(ours[i] == want);
        size_t kind = ours[i].find("-bit, ") + 6;  // "constant", "register", "memory"
        forms[std::string(table->name) + " " + ours[i].substr(kind, ours[i].find(' ', kind) - kind)]++;
      }
    }
  }
  std::string seen;
  for (const auto& [form, n] : forms) seen += form + " " + std::to_string(n) + "; ";
  MESSAGE("forms decoded: " << seen);
  // Every operand form the compilers emitted here was met at least once.
  for (const char* form : {"x86_64 constant", "x86_64 register", "x86_64 memory", "aarch64 register",
                           "aarch64 memory", "aarch64 constant", "arm register", "arm memory", "arm constant"})
    CHECK_MESSAGE(forms.count(form), form);
}

TEST_CASE("aarch64 and arm forms the samples lack decode in the same style (issue's form list)") {
  auto a64 = ElfFile::open(elf_sample("usdt_args_aarch64"));
  auto a32 = ElfFile::open(elf_sample("usdt_args_a32"));
  REQUIRE(a64);
  REQUIRE(a32);
  const arch::Table& t64 = *arch::by_machine(EM_AARCH64, ELFCLASS64);
  const arch::Table& t32 = *arch::by_machine(EM_ARM, ELFCLASS32);
  CHECK(describe_usdt_args(*a64, "8@[x0, x1]")[0] ==
        "arg0: 8@[x0, x1]  unsigned 64-bit, memory at " + reg(t64, "x0") + " + " + reg(t64, "x1"));
  CHECK(describe_usdt_args(*a64, "-4@w3")[0] == "arg0: -4@w3  signed 32-bit, register " + reg(t64, "w3"));
  CHECK(describe_usdt_args(*a64, "8@sp")[0] == "arg0: 8@sp  unsigned 64-bit, register " + reg(t64, "sp"));
  CHECK(describe_usdt_args(*a64, "-8@[sp, -16]")[0] ==
        "arg0: -8@[sp, -16]  signed 64-bit, memory at " + reg(t64, "sp") + " - 16");
  CHECK(describe_usdt_args(*a32, "-4@[fp, #-8]")[0] ==
        "arg0: -4@[fp, #-8]  signed 32-bit, memory at " + reg(t32, "fp") + " - 8");
  CHECK(describe_usdt_args(*a32, "4@lr")[0] == "arg0: 4@lr  unsigned 32-bit, register " + reg(t32, "lr"));
}

// Kept last: <asm/ptrace.h> defines macros (RAX, RIP, ...) that would clash with names above.
#if defined(__x86_64__)
#include <asm/ptrace.h>

#include <cstddef>

TEST_CASE("the issue's example: -8@%rax in hello_usdt is pt_regs+offsetof(struct pt_regs, rax)") {
  auto file = ElfFile::open(seed_sample("hello_usdt"));
  REQUIRE(file);
  std::set<std::string> strings = readelf_argument_strings(seed_sample("hello_usdt"));
  REQUIRE(strings == std::set<std::string>{"-8@%rax"});
  std::vector<std::string> ours = describe_usdt_args(*file, "-8@%rax");
  REQUIRE(ours.size() == 1);
  CHECK(ours[0] == "arg0: -8@%rax  signed 64-bit, register rax (pt_regs+" +
                       std::to_string(offsetof(struct pt_regs, rax)) + ")");
  // The forms the samples lack, decoded from specs written in the issue's list.
  CHECK(describe_usdt_args(*file, "1@%ah")[0] ==
        "arg0: 1@%ah  unsigned 8-bit, register ah (bits 8-15 of pt_regs+" + std::to_string(offsetof(struct pt_regs, rax)) + ")");
  CHECK(describe_usdt_args(*file, "-4@-16(%rbp)")[0] ==
        "arg0: -4@-16(%rbp)  signed 32-bit, memory at rbp (pt_regs+" + std::to_string(offsetof(struct pt_regs, rbp)) + ") - 16");
  CHECK(describe_usdt_args(*file, "8@8(,%rcx,4)")[0] ==
        "arg0: 8@8(,%rcx,4)  unsigned 64-bit, memory at rcx (pt_regs+" + std::to_string(offsetof(struct pt_regs, rcx)) + ")*4 + 8");
  CHECK(describe_usdt_args(*file, "8@%xmm1")[0] ==
        "arg0: 8@%xmm1  unsigned 64-bit, vector register xmm1 (not saved in pt_regs: unreadable)");
  CHECK(describe_usdt_args(*file, "8@%rzz")[0].find("unknown x86_64 register 'rzz'") != std::string::npos);
}
#endif
