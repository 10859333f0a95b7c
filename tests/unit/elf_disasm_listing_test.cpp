// -lv's disassembly of one function against objdump -d of the same function (the cross
// objdump for aarch64 and arm): every call and jump goes to objdump's absolute target and is
// named as objdump names it (<fun>, <main+0x94>, <printf@plt>), and every x86
// rip-relative operand points where objdump's "# addr" says.
#include "tests/unit/elf_test_support.h"

#include <elf.h>

#include <algorithm>
#include <map>

#include "elf/binary.h"
#include "elf/disasm_listing.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;

namespace {

struct Line {
  std::string mnemonic, operands;
};

// objdump's instructions in [address, address+size), by address.
std::map<uint64_t, Line> objdump_lines(const std::string& objdump, const std::string& path,
                                       uint64_t address, uint64_t size) {
  std::map<uint64_t, Line> out;
  char range[96];
  snprintf(range, sizeof range, " --start-address=0x%llx --stop-address=0x%llx ",
           (unsigned long long)address, (unsigned long long)(address + size));
  std::regex insn(R"(^\s*([0-9a-f]+):\t(\S+)\s*(.*)$)");
  for (const std::string& line : lines(run(objdump + " -d -w --no-show-raw-insn" + range + "'" + path + "'"))) {
    std::smatch m;
    if (std::regex_match(line, m, insn)) out[std::stoull(m[1], nullptr, 16)] = {m[2], m[3]};
  }
  return out;
}

bool is_branch(const std::string& mnemonic, uint16_t machine) {
  if (machine == EM_X86_64) return mnemonic.rfind("call", 0) == 0 || mnemonic[0] == 'j' || mnemonic == "bnd";
  return mnemonic[0] == 'b' || mnemonic.rfind("cb", 0) == 0 || mnemonic.rfind("tb", 0) == 0;
}

// Compares every branch and rip-relative operand of `name`; returns how many were compared.
size_t compare(const std::string& objdump, const std::string& path, const Symbol& fn,
               const SymbolTable& table, const ElfFile& file, size_t& plt) {
  CAPTURE(path);
  CAPTURE(fn.name);
  auto ours = disassembly_listing(file, table, fn);
  REQUIRE_MESSAGE(ours, (ours ? "" : ours.error().message()));
  std::map<uint64_t, std::string> by_address;
  std::regex our_line(R"(^\+(\d+)\s+0x([0-9a-f]+)  (.*)$)");
  for (const std::string& l : *ours) {
    std::smatch m;
    if (!std::regex_match(l, m, our_line)) continue;
    uint64_t address = std::stoull(m[2], nullptr, 16);
    CHECK(address == fn.address + std::stoull(m[1]));  // +OFF and the address agree
    by_address[address] = m[3];
  }
  size_t compared = 0;
  std::regex branch_target(R"(^([0-9a-f]+) <([^>]+)>$)");
  std::regex comment_target(R"(# ([0-9a-f]+) <)");
  for (const auto& entry : objdump_lines(objdump, path, fn.address, fn.size)) {
    uint64_t address = entry.first;
    const Line& line = entry.second;
    CAPTURE(line.mnemonic + " " + line.operands);
    std::smatch m;
    std::string operands = line.operands;
    if (line.mnemonic == "bnd") operands = operands.substr(operands.find_first_of(" \t") + 1);
    operands.erase(0, operands.find_first_not_of(" \t"));
    if (is_branch(line.mnemonic, file.machine()) && std::regex_match(operands, m, branch_target)) {
      REQUIRE(by_address.count(address));
      const std::string& mine = by_address[address];
      CAPTURE(mine);
      CHECK(mine.find("0x" + m[1].str()) != std::string::npos);
      CHECK(mine.substr(mine.size() - m[2].length() - 2) == "<" + m[2].str() + ">");
      plt += m[2].str().find("@plt") != std::string::npos;
      ++compared;
    } else if (std::regex_search(line.operands, m, comment_target)) {
      REQUIRE(by_address.count(address));
      CAPTURE(by_address[address]);
      CHECK(by_address[address].find("# 0x" + m[1].str()) != std::string::npos);
      ++compared;
    }
  }
  return compared;
}

size_t compare_all(const std::string& objdump, const std::string& path) {
  auto file = ElfFile::open(path);
  REQUIRE(file);
  auto table = SymbolTable::read(*file);
  REQUIRE(table);
  size_t compared = 0, plt = 0;
  for (const Symbol& fn : table->functions())
    if (fn.size > 0) compared += compare(objdump, path, fn, *table, *file, plt);
  MESSAGE(path << ": " << compared << " branch targets and rip-relative operands equal objdump's, "
               << plt << " calls named <...@plt>");
  CHECK(plt > 0);
  return compared;
}

}  // namespace

TEST_CASE("disassembly listing targets and names equal objdump's on x86_64") {
  CHECK(compare_all("objdump", seed_sample("fun")) > 20);
  CHECK(compare_all("objdump", elf_sample("usdt_args_O2")) > 10);
  CHECK(compare_all("objdump", elf_sample("usdt_args_nopie")) > 10);
}

TEST_CASE("disassembly listing of libstdc++.so.6 functions: versioned dynsym names as objdump prints them") {
  std::string lib = system_library("libstdc++.so.6");
  auto file = ElfFile::open(lib);
  REQUIRE(file);
  auto table = SymbolTable::read(*file);
  REQUIRE(table);
  size_t compared = 0, plt = 0;
  for (const char* name : {"_ZNSt6thread4joinEv", "_ZNSt6thread6detachEv", "_ZSt9terminatev",
                           "_ZNSt13runtime_errorC2EPKc"}) {
    auto found = std::find_if(table->functions().begin(), table->functions().end(),
                              [&](const Symbol& s) { return s.name == name; });
    REQUIRE_MESSAGE(found != table->functions().end(), name);
    compared += compare("objdump", lib, *found, *table, *file, plt);
  }
  MESSAGE(lib << ": " << compared << " targets equal objdump's, " << plt << " named <...@plt>");
  CHECK(compared > 4);
  CHECK(plt > 0);
}

TEST_CASE("disassembly listing targets equal the cross objdump's on aarch64 and arm Thumb/A32") {
  CHECK(compare_all("aarch64-linux-gnu-objdump", elf_sample("usdt_args_aarch64")) > 10);
  CHECK(compare_all("arm-linux-gnueabihf-objdump", elf_sample("usdt_args_arm")) > 10);
  CHECK(compare_all("arm-linux-gnueabihf-objdump", elf_sample("usdt_args_a32")) > 10);
}
