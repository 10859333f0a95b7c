// USDT argument specs: the structured form of every argument of our x86_64, aarch64 and arm
// samples is checked against llvm-mc, which assembles the note's operand and our rendering of
// the parsed form; equal encodings mean the parse kept base, index, scale, offset and symbol.
// Other architectures (no cross compiler here) are checked on the forms their gcc emits, with
// registers resolved through arch/. Bad specs get errors that say what is wrong.
#include "tests/unit/elf_test_support.h"

#include <elf.h>

#include <set>

#include "arch/arch.h"
#include "elf/resolve.h"
#include "elf/usdt_args.h"
#include "elf/usdt_notes.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;
namespace arch = rawprobe::arch;

namespace {

std::string num(int64_t v) { return std::to_string(v); }

// Our parsed form, written back as an instruction the assembler understands; `original` is
// the note's own operand in the same instruction. Empty when the kind has no memory form.
struct Pair {
  std::string ours, original;
};

Pair render(const UsdtArg& a, uint16_t machine) {
  std::string op = a.text.substr(a.text.find('@') + 1);
  auto disp = [&] {
    std::string s = a.symbol;
    if (a.offset || s.empty()) s += (a.offset >= 0 && !s.empty() ? "+" : "") + num(a.offset);
    return s;
  };
  if (machine == EM_X86_64) {
    switch (a.kind) {
      case UsdtArgKind::Memory: return {"lea " + disp() + "(%" + a.base.name + "), %rax", "lea " + op + ", %rax"};
      case UsdtArgKind::Indexed:
        return {"lea " + disp() + "(" + (a.base.present() ? "%" + a.base.name : "") + ",%" +
                    a.index.name + "," + num(a.scale) + "), %rax",
                "lea " + op + ", %rax"};
      case UsdtArgKind::SymbolRelative: return {"lea " + disp() + "(%rip), %rax", "lea " + op + ", %rax"};
      case UsdtArgKind::Constant: return {"mov $" + num(a.constant) + ", %rax", "mov " + op + ", %rax"};
      default: return {};
    }
  }
  std::string reg = machine == EM_AARCH64 ? "x0" : "r0";
  switch (a.kind) {
    case UsdtArgKind::Memory:
      return {"ldr " + reg + ", [" + a.base.name + ", #" + num(a.offset) + "]", "ldr " + reg + ", " + op};
    case UsdtArgKind::Indexed:
      return {"ldr " + reg + ", [" + a.base.name + ", " + a.index.name + "]", "ldr " + reg + ", " + op};
    default: return {};
  }
}

std::string encodings(const std::string& triple, const std::vector<std::string>& insns) {
  std::string input;
  for (const std::string& i : insns) input += i + "\n";
  std::string path = scratch_dir("llvm-mc") + "/in.s";
  write_file(path, input);
  std::string out;
  for (const std::string& line : lines(run("llvm-mc -triple=" + triple + " -show-encoding " + path))) {
    size_t at = line.find("encoding:");
    size_t fix = line.find("fixup");
    if (at != std::string::npos) out += line.substr(at) + "\n";
    if (fix != std::string::npos) out += line.substr(fix) + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("parsed operands of real notes assemble like the notes' own text (llvm-mc)") {
  struct Target {
    std::string sample, triple;
  };
  for (const Target& t : {Target{"usdt_args_O0", "x86_64"}, Target{"usdt_args_O2", "x86_64"},
                          Target{"usdt_args_nopie", "x86_64"}, Target{"usdt_args_aarch64", "aarch64"},
                          Target{"usdt_args_arm", "thumbv7"}, Target{"usdt_args_a32", "armv7"}}) {
    CAPTURE(t.sample);
    auto file = ElfFile::open(elf_sample(t.sample));
    REQUIRE(file);
    auto notes = read_usdt_notes(*file);
    REQUIRE(notes);
    std::vector<std::string> ours, original;
    std::set<UsdtArgKind> kinds;
    size_t registers = 0;
    for (const UsdtNote& n : *notes) {
      auto args = parse_usdt_args(n.args, file->machine(), file->elf_class());
      REQUIRE(args);
      for (const UsdtArg& a : *args) {
        kinds.insert(a.kind);
        Pair p = render(a, file->machine());
        if (!p.ours.empty()) {
          ours.push_back(p.ours);
          original.push_back(p.original);
        }
        if (a.kind == UsdtArgKind::Register) {
          // The register named in the text is the one resolved.
          std::string op = a.text.substr(a.text.find('@') + 1);
          CHECK(op == (file->machine() == EM_X86_64 ? "%" : "") + a.base.name);
          ++registers;
        }
      }
    }
    CHECK(encodings(t.triple, ours) == encodings(t.triple, original));
    MESSAGE(t.sample << ": " << ours.size() << " operands compared with llvm-mc, " << registers
                     << " registers, " << kinds.size() << " kinds");
  }
}

TEST_CASE("the -O2 x86_64 sample covers every operand form, and rip-relative symbols resolve") {
  auto binary = Binary::open(elf_sample("usdt_args_O2"));
  REQUIRE(binary);
  auto sites = resolve_usdt(*binary, "usdt_args", "*");
  REQUIRE(sites);
  std::set<UsdtArgKind> kinds;
  size_t args_of_many = 0;
  for (const UsdtSite& s : *sites) {
    for (size_t i = 0; i < s.args.size(); ++i) {
      kinds.insert(s.args[i].kind);
      if (s.args[i].kind == UsdtArgKind::SymbolRelative) {
        // The symbol's address: the oracle is nm.
        std::string nm = run("nm '" + elf_sample("usdt_args_O2") + "' | grep ' " + s.args[i].symbol + "$'");
        CHECK(s.arg_symbol_addresses[i] == std::stoull(nm, nullptr, 16));
      }
    }
    if (s.name == "many") args_of_many = s.args.size();
  }
  CHECK(kinds.count(UsdtArgKind::Constant));
  CHECK(kinds.count(UsdtArgKind::Register));
  CHECK(kinds.count(UsdtArgKind::Memory));
  CHECK(kinds.count(UsdtArgKind::Indexed));
  CHECK(kinds.count(UsdtArgKind::SymbolRelative));
  CHECK(args_of_many == 14);
}

TEST_CASE("register aliases resolve to the arch/ table's slots with width and bit offset") {
  const arch::Table& x86 = *arch::by_machine(EM_X86_64, ELFCLASS64);
  for (const char* name : {"rax", "eax", "ax", "al", "ah", "r8b", "r15w", "sil", "dil", "spl", "bpl", "dh"}) {
    CAPTURE(name);
    auto args = parse_usdt_args(std::string("1@%") + name, x86);
    REQUIRE(args);
    auto expected = arch::resolve_alias(x86, name);
    REQUIRE(expected);
    CHECK((*args)[0].base.slot.offset == expected->slot.offset);
    CHECK((*args)[0].base.width_bits == expected->width_bits);
    CHECK((*args)[0].base.bit_offset == expected->bit_offset);
  }
}

TEST_CASE("the forms other architectures' compilers emit parse, dispatched on e_machine") {
  struct Case {
    uint16_t machine;
    const char* spec;
    UsdtArgKind kind;
    const char* base;   // alias expected in base ("" for none)
    int64_t value;      // offset or constant
  };
  const Case cases[] = {
      {EM_RISCV, "8@a0", UsdtArgKind::Register, "a0", 0},
      {EM_RISCV, "-4@-20(s0)", UsdtArgKind::Memory, "s0", -20},
      {EM_RISCV, "4@5", UsdtArgKind::Constant, "", 5},
      {EM_S390, "8@%r2", UsdtArgKind::Register, "r2", 0},
      {EM_S390, "-4@160(%r15)", UsdtArgKind::Memory, "r15", 160},
      {EM_S390, "8@8(%r1,%r2)", UsdtArgKind::Indexed, "r2", 8},
      {EM_PPC64, "8@3", UsdtArgKind::Register, "r3", 0},
      {EM_PPC64, "8@%r4", UsdtArgKind::Register, "r4", 0},
      {EM_PPC64, "-4@-20(31)", UsdtArgKind::Memory, "r31", -20},
      {EM_PPC64, "4@i-7", UsdtArgKind::Constant, "", -7},
      {EM_MIPS, "8@$4", UsdtArgKind::Register, "$4", 0},
      {EM_MIPS, "-4@-20($fp)", UsdtArgKind::Memory, "$fp", -20},
      {EM_LOONGARCH, "8@$a0", UsdtArgKind::Register, "$a0", 0},
      {EM_LOONGARCH, "-4@$r22,-20", UsdtArgKind::Memory, "$r22", -20},
      {EM_LOONGARCH, "-4@-20($r22)", UsdtArgKind::Memory, "$r22", -20},
      {EM_AARCH64, "8@sp", UsdtArgKind::Register, "sp", 0},
      {EM_AARCH64, "8@[x0, x1]", UsdtArgKind::Indexed, "x0", 0},
      {EM_ARM, "4@[fp, #-8]", UsdtArgKind::Memory, "fp", -8},
  };
  for (const Case& c : cases) {
    CAPTURE(c.spec);
    const arch::Table* table = nullptr;
    for (const arch::Table* t : arch::all())
      if (t->e_machine == c.machine) table = t;
    REQUIRE(table);
    auto args = parse_usdt_args(c.spec, *table);
    REQUIRE_MESSAGE(args, (args ? "" : args.error().message()));
    const UsdtArg& a = (*args)[0];
    CHECK(a.kind == c.kind);
    CHECK(a.base.name == c.base);
    if (*c.base) {
      auto slot = arch::resolve_alias(*table, c.base);
      REQUIRE(slot);
      CHECK(a.base.slot.offset == slot->slot.offset);
    }
    CHECK((c.kind == UsdtArgKind::Constant ? a.constant : a.offset) == c.value);
  }
}

TEST_CASE("vector registers parse but say why they cannot be read") {
  auto x = parse_usdt_args("8@%xmm1", EM_X86_64, ELFCLASS64);
  REQUIRE(x);
  CHECK((*x)[0].kind == UsdtArgKind::VectorRegister);
  CHECK((*x)[0].unsupported_reason().find("xmm1") != std::string::npos);
  auto a = parse_usdt_args("8@d0", EM_AARCH64, ELFCLASS64);
  REQUIRE(a);
  CHECK((*a)[0].kind == UsdtArgKind::VectorRegister);
}

TEST_CASE("bad specs are errors that name the argument and the problem") {
  struct Bad {
    const char* spec;
    const char* says;
  };
  for (const Bad& b : {Bad{"8@%rzz", "unknown x86_64 register 'rzz'"},
                       Bad{"99@%rax", "must be 1, 2, 4 or 8"},
                       Bad{"8@", "nothing after '@'"},
                       Bad{"%rax", "no '@' found"},
                       Bad{"8@-4(%rbp", "expected ')'"},
                       Bad{"8@(%rax,%rbx,3)", "scale '3'"},
                       Bad{"8@8(%rip)", "has no symbol"},
                       Bad{"8@$abc", "bad constant"}}) {
    CAPTURE(b.spec);
    auto r = parse_usdt_args(std::string("8@%rdi ") + b.spec, EM_X86_64, ELFCLASS64);
    REQUIRE(!r);
    CHECK(r.error().message().find(b.says) != std::string::npos);
    CHECK(r.error().message().find("argument 1") != std::string::npos);
  }
  CHECK(!parse_usdt_args("8@x99", EM_AARCH64, ELFCLASS64));
  CHECK(!parse_usdt_args("8@a0", 0x1234, ELFCLASS64));
}
