// The Capstone instruction-boundary check against objdump -d: for functions of our samples,
// of libstdc++.so.6, and of the aarch64 and arm (Thumb and A32) cross builds (disassembled by
// the cross binutils), the offsets the check accepts are exactly objdump's instruction starts.
#include "tests/unit/elf_test_support.h"

#include <elf.h>

#include <set>

#include "elf/binary.h"
#include "elf/boundary.h"
#include "elf/resolve.h"
#include "elf/symbol_match.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;
using rawprobe::Status;

namespace {

// Instruction starts in [address, address+size), as offsets from address, from `objdump`
// (or a cross one). For Thumb code objdump needs the mapping symbols, which it reads itself.
std::vector<uint64_t> objdump_starts(const std::string& objdump, const std::string& path,
                                     uint64_t address, uint64_t size) {
  std::vector<uint64_t> starts;
  std::regex insn(R"(^\s+([0-9a-f]+):\s)");
  char range[96];
  snprintf(range, sizeof range, " --start-address=0x%llx --stop-address=0x%llx ",
           (unsigned long long)address, (unsigned long long)(address + size));
  for (const std::string& line :
       lines(run(objdump + " -d -w --no-show-raw-insn" + range + "'" + path + "'"))) {
    std::smatch m;
    // objdump prints literal-pool data as .word/.short: not instruction starts.
    if (std::regex_search(line, m, insn) && line.find(".word") == std::string::npos &&
        line.find(".short") == std::string::npos)
      starts.push_back(std::stoull(m[1], nullptr, 16) - address);
  }
  return starts;
}

const Symbol& function_named(const SymbolTable& table, const std::string& name) {
  auto found = find_functions(table, parse_symbol_query(name));
  REQUIRE_MESSAGE(!found.empty(), name);
  return *found[0];
}

std::vector<uint64_t> objdump_starts(const std::string& objdump, const std::string& path,
                                     const std::string& name) {
  auto file = ElfFile::open(path);
  REQUIRE(file);
  auto table = SymbolTable::read(*file);
  REQUIRE(table);
  const Symbol& sym = function_named(*table, name);
  return objdump_starts(objdump, path, sym.address, sym.size);
}

// Every offset of the function checked; returns how many were compared.
size_t compare_function(const std::string& objdump, const std::string& path,
                        const std::string& name) {
  CAPTURE(path);
  CAPTURE(name);
  auto file = ElfFile::open(path);
  REQUIRE(file);
  auto table = SymbolTable::read(*file);
  REQUIRE(table);
  const Symbol& sym = function_named(*table, name);
  std::vector<uint64_t> starts = objdump_starts(objdump, path, sym.address, sym.size);
  REQUIRE(starts.size() > 1);
  std::set<uint64_t> valid(starts.begin(), starts.end());
  for (uint64_t off = 0; off < sym.size; ++off) {
    Status s = check_instruction_boundary(*file, sym, off, name);
    CHECK_MESSAGE(bool(s) == (valid.count(off) == 1),
                  "offset " << off << ": " << (s ? "accepted" : s.error().message()));
  }
  return sym.size;
}

}  // namespace

TEST_CASE("accepted offsets equal objdump's instruction starts on x86_64") {
  for (const char* fn : {"fire_scalars", "fire_globals", "fire_many", "main"})
    compare_function("objdump", elf_sample("usdt_args_O2"), fn);
  for (const char* fn : {"_ZN2ns1fEi", "_ZNK2ns6Widget6methodEv", "main"})
    compare_function("objdump", elf_sample("cxx_names"), fn);
  // A handful of libstdc++ functions, taken from its dynamic symbol table in order.
  const std::string lib = system_library("libstdc++.so.6");
  auto file = ElfFile::open(lib);
  REQUIRE(file);
  auto table = SymbolTable::read(*file);
  REQUIRE(table);
  size_t picked = 0;
  for (size_t i = 0; i < table->functions().size() && picked < 8; i += table->functions().size() / 8) {
    const Symbol& s = table->functions()[i];
    if (s.size < 8 || s.size > 400) continue;
    compare_function("objdump", lib, std::string(s.name));
    ++picked;
  }
  CHECK(picked >= 4);
}

TEST_CASE("accepted offsets equal the cross objdump's on aarch64 and arm Thumb/A32") {
  compare_function("aarch64-linux-gnu-objdump", elf_sample("usdt_args_aarch64"), "fire_scalars");
  compare_function("aarch64-linux-gnu-objdump", elf_sample("usdt_args_aarch64"), "fire_globals");
  // Debian's armhf gcc emits Thumb-2 (mixed 2- and 4-byte instructions); the symbol's bit 0
  // selects Thumb mode.
  auto thumb = ElfFile::open(elf_sample("usdt_args_arm"));
  REQUIRE(thumb);
  auto table = SymbolTable::read(*thumb);
  REQUIRE(table);
  auto found = find_functions(*table, parse_symbol_query("fire_scalars"));
  REQUIRE(!found.empty());
  CHECK(found[0]->thumb);
  compare_function("arm-linux-gnueabihf-objdump", elf_sample("usdt_args_arm"), "fire_scalars");
  compare_function("arm-linux-gnueabihf-objdump", elf_sample("usdt_args_arm"), "fire_many");
  compare_function("arm-linux-gnueabihf-objdump", elf_sample("usdt_args_a32"), "fire_scalars");
}

TEST_CASE("a mid-instruction offset names the instruction and the valid neighbours") {
  const std::string path = elf_sample("usdt_args_O0");
  std::vector<uint64_t> starts = objdump_starts("objdump", path, "fire_scalars");
  // The first instruction longer than one byte.
  size_t i = 0;
  while (i + 1 < starts.size() && starts[i + 1] - starts[i] < 2) ++i;
  REQUIRE(i + 1 < starts.size());
  uint64_t inside = starts[i] + 1;
  auto binary = Binary::open(path);
  REQUIRE(binary);
  auto r = resolve_function(*binary, "fire_scalars", inside, {});
  REQUIRE(!r);
  std::string text = r.error().message();
  CAPTURE(text);
  std::string expect = "fire_scalars+" + std::to_string(inside) + " is inside '";
  CHECK(text.find(expect) != std::string::npos);
  CHECK(text.find("(fire_scalars+" + std::to_string(starts[i]) + "..fire_scalars+" +
                  std::to_string(starts[i + 1]) + "); valid: +" + std::to_string(starts[i]) +
                  ", +" + std::to_string(starts[i + 1])) != std::string::npos);
  // --unsafe skips the check and places the probe anyway.
  ResolveOptions unsafe;
  unsafe.unsafe = true;
  CHECK(resolve_function(*binary, "fire_scalars", inside, unsafe));
  // Past the end.
  auto past = resolve_function(*binary, "fire_scalars", 100000, {});
  REQUIRE(!past);
  CHECK(past.error().message().find("past the end") != std::string::npos);
}

TEST_CASE("a raw address inside a function is checked like func+OFF") {
  const std::string path = elf_sample("usdt_args_O2");
  std::vector<uint64_t> starts = objdump_starts("objdump", path, "fire_globals");
  auto binary = Binary::open(path);
  REQUIRE(binary);
  auto fn = resolve_function(*binary, "fire_globals", 0, {});
  REQUIRE(fn);
  uint64_t base = (*fn)[0].address;
  auto good = resolve_address(*binary, base + starts[2], {});
  REQUIRE(good);
  CHECK(good->function == "fire_globals");
  CHECK(good->file_offset == (*fn)[0].file_offset + starts[2]);
  if (starts[2] - starts[1] > 1) CHECK(!resolve_address(*binary, base + starts[1] + 1, {}));
}

TEST_CASE("undecodable bytes stop the sweep and ask for --unsafe") {
  // A copy of the sample with the middle of fire_many overwritten by bytes no x86 decoder
  // accepts (0x0f 0x0b is ud2, valid; 0xd6 is invalid in 64-bit mode).
  const std::string path = elf_sample("usdt_args_O2");
  auto binary = Binary::open(path);
  REQUIRE(binary);
  auto fn = resolve_function(*binary, "fire_many", 0, {});
  REQUIRE(fn);
  std::vector<uint64_t> starts = objdump_starts("objdump", path, "fire_many");
  REQUIRE(starts.size() > 4);
  std::string bytes = read_file(path);
  bytes[(*fn)[0].file_offset + starts[2]] = static_cast<char>(0xd6);
  auto file = ElfFile::from_bytes({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "patched");
  REQUIRE(file);
  auto table = SymbolTable::read(*file);
  REQUIRE(table);
  const Symbol* sym = find_functions(*table, parse_symbol_query("fire_many"))[0];
  Status s = check_instruction_boundary(*file, *sym, starts[3], "fire_many");
  REQUIRE(!s);
  CHECK(s.error().message().find("cannot decode") != std::string::npos);
  CHECK(s.error().message().find("--unsafe") != std::string::npos);
  CHECK(check_instruction_boundary(*file, *sym, starts[1], "fire_many"));
}
