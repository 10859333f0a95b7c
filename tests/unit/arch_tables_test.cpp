// arch/ lookups and table invariants, and the USDT register names checked against the names
// real compilers print for register operands (which is what <sys/sdt.h> writes into notes).
#include <doctest/doctest.h>
#include <elf.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "tests/unit/arch_oracle.h"

namespace rawprobe::arch {
namespace {

// Every table a caller can get: all() plus the compat views.
std::vector<const Table*> every_table() {
  std::vector<const Table*> tables(all().begin(), all().end());
  tables.push_back(for_process(*by_name("i386"), *by_name("x86_64")));
  tables.push_back(for_process(*by_name("arm"), *by_name("aarch64")));
  return tables;
}

TEST_CASE("slots tile pt_regs and every register name resolves") {
  for (const Table* table : every_table()) {
    INFO("table ", table->name);
    REQUIRE(!table->pt_regs.empty());
    std::set<std::string_view> slot_names;
    uint16_t end = 0;
    for (const RegSlot& slot : table->pt_regs) {
      INFO("slot ", slot.name);
      CHECK(slot_names.insert(slot.name).second);
      CHECK(slot.offset == end);  // in order, no gap, no overlap
      CHECK(slot.size == table->pt_regs[0].size);  // one kernel word each
      end = slot.offset + slot.size;
    }
    CHECK(table->pt_regs_size == end);

    for (std::string_view reg : table->arg_regs) CHECK_MESSAGE(find_slot(*table, reg), reg);
    for (std::string_view reg : {table->ret_reg, table->sp_reg, table->ip_reg, table->fp_reg})
      CHECK_MESSAGE(find_slot(*table, reg), reg);

    std::set<std::string_view> alias_names;
    for (const RegAlias& alias : table->usdt_aliases) {
      INFO("alias ", alias.alias);
      CHECK(alias_names.insert(alias.alias).second);
      auto resolved = resolve_alias(*table, alias.alias);
      REQUIRE(resolved);
      CHECK(resolved->slot.name == alias.reg);
      CHECK((alias.width_bits == 8 || alias.width_bits == 16 || alias.width_bits == 32 ||
             alias.width_bits == 64));
      CHECK(alias.bit_offset + alias.width_bits <= resolved->slot.size * 8);
    }
    CHECK_FALSE(resolve_alias(*table, "no-such-register"));
  }
}

TEST_CASE("lookup by machine, by name, and for a process") {
  std::set<std::pair<uint16_t, uint8_t>> machines;
  for (const Table* table : all()) {
    INFO("table ", table->name);
    CHECK(machines.insert({table->e_machine, table->elf_class}).second);
    CHECK(by_machine(table->e_machine, table->elf_class) == table);
    CHECK(by_name(table->name) == table);
    CHECK(for_process(*table, *table) == table);
    // A kernel's pt_regs holds words of the kernel's own size (compat views differ).
    CHECK(table->pt_regs[0].size == (table->elf_class == ELFCLASS64 ? 8 : 4));
  }
  CHECK(all().size() == 9);
  CHECK(by_name("arm64") == by_name("aarch64"));
  CHECK(by_name("amd64") == by_name("x86_64"));
  CHECK(by_name("sparc64") == nullptr);
  CHECK(by_machine(EM_SPARCV9, ELFCLASS64) == nullptr);
  CHECK(by_machine(EM_X86_64, ELFCLASS32) == nullptr);  // x32 is not supported
  // A kernel cannot run a binary of an unrelated architecture.
  CHECK(for_process(*by_name("aarch64"), *by_name("x86_64")) == nullptr);
  CHECK(for_process(*by_name("x86_64"), *by_name("i386")) == nullptr);
}

// e_machine and class of a real ELF file, straight from its header.
std::pair<uint16_t, uint8_t> elf_identity(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  Elf64_Ehdr header{};  // e_machine sits at the same offset in both classes
  file.read(reinterpret_cast<char*>(&header), sizeof header);
  REQUIRE_MESSAGE(file, "cannot read an ELF header from ", path);
  REQUIRE(std::string_view(reinterpret_cast<char*>(header.e_ident), 4) == ELFMAG);
  return {header.e_machine, header.e_ident[EI_CLASS]};
}

TEST_CASE("real ELF files find their architecture's table") {
  auto [machine, elf_class] = elf_identity("/proc/self/exe");
  CHECK(by_machine(machine, elf_class) == &host());

  // Libraries of the installed cross toolchains (Debian packages libc6-*-cross).
  for (auto entry : {std::pair{"/usr/aarch64-linux-gnu/lib/libc.so.6", "aarch64"},
                     std::pair{"/usr/arm-linux-gnueabihf/lib/libc.so.6", "arm"}}) {
    const char* path = entry.first;
    const char* name = entry.second;
    INFO(path);
    auto [foreign_machine, foreign_class] = elf_identity(path);
    const Table* table = by_machine(foreign_machine, foreign_class);
    REQUIRE(table != nullptr);
    CHECK(table->name == name);
  }

  // A 32-bit x86 object from the host compiler, traced on this x86_64 kernel.
  test::ScratchDir dir;
  std::string object = (dir.path() / "m32.o").string();
  auto built = test::run_command("echo 'int f(int x) { return x; }' | gcc -m32 -x c -c -o " +
                                 object + " -");
  REQUIRE_MESSAGE(built.status == 0, built.output);
  auto [m32_machine, m32_class] = elf_identity(object);
  const Table* binary = by_machine(m32_machine, m32_class);
  REQUIRE(binary != nullptr);
  CHECK(binary->name == "i386");
  const Table* view = for_process(*binary, host());
  REQUIRE(view != nullptr);
  CHECK(resolve_alias(*view, "eax")->slot.offset == find_slot(host(), "ax")->offset);
}

// For each register and C type, the name the compiler prints for that register holding a
// value of that type must resolve to the register's slot with the type's width.
struct NamingCase {
  std::string table, compiler;
  std::vector<std::string> registers;             // names for `register ... asm("...")`
  struct Type {
    std::string c_type, modifier;  // operand modifier, e.g. aarch64's "w"
    int width_bits;                // the width the printed name must resolve to
  };
  std::vector<Type> types;  // the last one is the register's full width
};

void check_compiler_names(const NamingCase& naming) {
  INFO("table ", naming.table, " with ", naming.compiler);
  const Table* table = by_name(naming.table);
  REQUIRE(table != nullptr);
  std::string program = naming.compiler.substr(0, naming.compiler.find(' '));
  REQUIRE_MESSAGE(test::run_command("command -v " + program).status == 0, program,
                  " is missing (make test-deps)");
  std::string body;
  for (size_t r = 0; r < naming.registers.size(); ++r)
    for (size_t t = 0; t < naming.types.size(); ++t) {
      std::string variable = "v" + std::to_string(r) + "_" + std::to_string(t);
      body += "  { register " + naming.types[t].c_type + " " + variable + " asm(\"" +
              naming.registers[r] + "\") = 1;\n" +
              test::emit_register(std::to_string(r) + "." + std::to_string(t), variable,
                                  naming.types[t].modifier);
      if (naming.table == "x86_64" && naming.types[t].width_bits == 8 && r < 4)
        body += test::emit_register(std::to_string(r) + ".high", variable, "h");
      body += "  }\n";
    }
  test::Emitted emitted = test::compile_and_read(naming.compiler, "", body);
  REQUIRE_MESSAGE(emitted.error.empty(), emitted.error);
  for (size_t r = 0; r < naming.registers.size(); ++r) {
    // The register's own slot: what the compiler calls it at full width.
    std::string full =
        emitted.values[std::to_string(r) + "." + std::to_string(naming.types.size() - 1)];
    if (!full.empty() && full[0] == '%') full.erase(0, 1);
    auto full_reg = resolve_alias(*table, full);
    REQUIRE_MESSAGE(full_reg, "full-width name ", full, " of ", naming.registers[r]);
    for (size_t t = 0; t < naming.types.size(); ++t) {
      std::string printed = emitted.values[std::to_string(r) + "." + std::to_string(t)];
      if (!printed.empty() && printed[0] == '%') printed.erase(0, 1);
      INFO("register ", naming.registers[r], " as ", naming.types[t].c_type, " printed ",
           printed);
      auto resolved = resolve_alias(*table, printed);
      REQUIRE(resolved);
      CHECK(resolved->slot.name == full_reg->slot.name);
      CHECK(resolved->width_bits == naming.types[t].width_bits);
      CHECK(resolved->bit_offset == 0);
    }
    auto high = emitted.values.find(std::to_string(r) + ".high");
    if (high != emitted.values.end()) {
      std::string printed = high->second.substr(high->second[0] == '%');
      INFO("high byte of ", naming.registers[r], " printed ", printed);
      auto resolved = resolve_alias(*table, printed);
      REQUIRE(resolved);
      CHECK(resolved->slot.name == full_reg->slot.name);
      CHECK(resolved->width_bits == 8);
      CHECK(resolved->bit_offset == 8);
    }
  }
}

std::vector<std::string> numbered(const std::string& prefix, int from, int to) {
  std::vector<std::string> names;
  for (int i = from; i <= to; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

TEST_CASE("USDT register names are the names compilers print") {
  NamingCase x86_64{"x86_64", "gcc -O2 -fomit-frame-pointer",
                    {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp"},
                    {{"char", "", 8}, {"short", "", 16}, {"int", "", 32}, {"long", "", 64}}};
  for (const std::string& r : numbered("r", 8, 15)) x86_64.registers.push_back(r);
  check_compiler_names(x86_64);

  // aarch64 prints xN whatever the type (so USDT notes read "-4@x1"); %w0 gives wN.
  check_compiler_names({"aarch64", "aarch64-linux-gnu-gcc -O2 -fomit-frame-pointer",
                        numbered("x", 0, 28), {{"int", "w", 32}, {"int", "", 64},
                                               {"long", "", 64}}});
  // arm gcc prints r11 and r12 as fp and ip.
  check_compiler_names({"arm", "arm-linux-gnueabihf-gcc -O2 -marm -fomit-frame-pointer",
                        numbered("r", 0, 12), {{"long", "", 32}}});
}

// The library directories rawprobe searches for a target of each architecture are the ones
// that architecture's Debian cross compiler names (gcc -print-multiarch).
TEST_CASE("multiarch triplets are what each cross compiler prints") {
  const std::pair<std::string, std::string> compilers[] = {
      {"x86_64", "x86_64-linux-gnu-gcc"},          {"i386", "i686-linux-gnu-gcc"},
      {"aarch64", "aarch64-linux-gnu-gcc"},        {"arm", "arm-linux-gnueabihf-gcc"},
      {"riscv64", "riscv64-linux-gnu-gcc"},        {"ppc64le", "powerpc64le-linux-gnu-gcc"},
      {"s390x", "s390x-linux-gnu-gcc"},            {"mips64", "mips64el-linux-gnuabi64-gcc"},
      {"loongarch64", "loongarch64-linux-gnu-gcc"},
  };
  int checked = 0;
  for (const auto& entry : compilers) {
    const std::string& name = entry.first;
    const std::string& compiler = entry.second;
    const Table* table = by_name(name);
    REQUIRE(table);
    test::CommandResult printed = test::run_command(compiler + " -print-multiarch 2>/dev/null", false);
    if (printed.status != 0) {
      MESSAGE(compiler << " is not installed: " << name << "'s triplet is not checked");
      continue;
    }
    std::string triplet = printed.output.substr(0, printed.output.find('\n'));
    CHECK_MESSAGE(table->multiarch == triplet, name);
    ++checked;
  }
  CHECK(checked >= 3);
}

}  // namespace
}  // namespace rawprobe::arch
