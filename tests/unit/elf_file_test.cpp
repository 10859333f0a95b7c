// Malformed ELF files get a specific error, never a crash. Each case mutates a real sample:
// truncation, header tables and segment/section contents past the end of the file.
#include "tests/unit/elf_test_support.h"

#include <elf.h>

#include <cstring>

#include "elf/binary.h"
#include "elf/elf_file.h"
#include "elf/symbols.h"
#include "elf/usdt_notes.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;

namespace {

rawprobe::Result<ElfFile> load(const std::string& bytes) {
  return ElfFile::from_bytes({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()},
                             "mutated");
}

std::string error_of(const std::string& bytes) {
  auto f = load(bytes);
  REQUIRE(!f);
  return f.error().message();
}

// A copy of `bytes` with one field of the named section's header changed.
template <class F>
std::string with_section_header(const std::string& bytes, const char* name, F change) {
  auto file = load(bytes);
  REQUIRE(file);
  const Section* sec = file->section(name);
  REQUIRE(sec);
  Elf64_Ehdr h;
  memcpy(&h, bytes.data(), sizeof h);
  std::string b = bytes;
  Elf64_Shdr sh;
  size_t at = h.e_shoff + sec->index * sizeof sh;
  memcpy(&sh, b.data() + at, sizeof sh);
  change(sh);
  memcpy(b.data() + at, &sh, sizeof sh);
  return b;
}

Elf64_Ehdr header(const std::string& bytes) {
  Elf64_Ehdr h;
  memcpy(&h, bytes.data(), sizeof h);
  return h;
}

}  // namespace

TEST_CASE("the samples open and report what readelf -h reports") {
  for (const std::string& path : {elf_sample("usdt_args_O2"), elf_sample("usdt_args_arm"),
                                  elf_sample("usdt_args_aarch64"), elf_sample("usdt_args_nopie")}) {
    CAPTURE(path);
    auto file = ElfFile::open(path);
    REQUIRE(file);
    std::string h = run("readelf -hW '" + path + "'");
    CHECK(h.find(file->elf_class() == ELFCLASS64 ? "ELF64" : "ELF32") != std::string::npos);
    CHECK(h.find(file->type() == ET_EXEC ? "EXEC (Executable file)" : "DYN ") != std::string::npos);
    CHECK(h.find("Number of program headers:         " + std::to_string(file->segments().size())) !=
          std::string::npos);
    CHECK(h.find("Number of section headers:         " + std::to_string(file->sections().size())) !=
          std::string::npos);
  }
}

TEST_CASE("malformed files are refused with what is wrong") {
  const std::string original = read_file(elf_sample("usdt_args_O2"));
  REQUIRE(load(original));
  Elf64_Ehdr h = header(original);

  SUBCASE("empty and not ELF") {
    CHECK(error_of("").find("not an ELF file") != std::string::npos);
    CHECK(error_of("#!/bin/sh\necho hi\n").find("not an ELF file") != std::string::npos);
  }
  SUBCASE("truncated inside the ELF header") {
    CHECK(error_of(original.substr(0, 40)).find("truncated") != std::string::npos);
  }
  SUBCASE("truncated to half: segments and the section header table are cut off") {
    std::string msg = error_of(original.substr(0, original.size() / 2));
    CHECK(msg.find("past the end of the file") != std::string::npos);
    CHECK(msg.find("truncated") != std::string::npos);
  }
  SUBCASE("section header offset past the end") {
    std::string b = original;
    Elf64_Ehdr m = h;
    m.e_shoff = b.size() + 4096;
    memcpy(b.data(), &m, sizeof m);
    CHECK(error_of(b).find("section header table") != std::string::npos);
  }
  SUBCASE("a segment's contents past the end") {
    std::string b = original;
    Elf64_Phdr ph;
    size_t at = h.e_phoff;  // first program header (PT_PHDR) is fine; pick the first PT_LOAD
    for (size_t i = 0; i < h.e_phnum; ++i) {
      memcpy(&ph, b.data() + h.e_phoff + i * sizeof ph, sizeof ph);
      if (ph.p_type == PT_LOAD) {
        at = h.e_phoff + i * sizeof ph;
        break;
      }
    }
    ph.p_offset = b.size() - 16;
    memcpy(b.data() + at, &ph, sizeof ph);
    std::string msg = error_of(b);
    CHECK(msg.find("PT_LOAD segment") != std::string::npos);
    CHECK(msg.find("past the end") != std::string::npos);
  }
  SUBCASE("a section's contents past the end") {
    auto file = load(original);
    REQUIRE(file);
    size_t index = file->section(".note.stapsdt")->index;
    std::string b = with_section_header(original, ".note.stapsdt",
                                        [](Elf64_Shdr& sh) { sh.sh_offset = 0xffffffffffff0000ull; });
    std::string msg = error_of(b);
    CHECK(msg.find("section " + std::to_string(index)) != std::string::npos);
    CHECK(msg.find("past the end") != std::string::npos);
  }
  SUBCASE("a symbol table whose string table index is out of range") {
    std::string b = with_section_header(original, ".symtab", [](Elf64_Shdr& sh) { sh.sh_link = 60000; });
    auto mutated = load(b);
    REQUIRE(mutated);
    auto table = SymbolTable::read(*mutated);
    REQUIRE(!table);
    CHECK(table.error().message().find("bad string table index") != std::string::npos);
  }
}

TEST_CASE("every truncation of a small binary is refused or parsed, never a crash") {
  // Cheap exhaustive sweep at coarse steps; the fuzzers (make fuzz) go further.
  const std::string original = read_file(seed_sample("hello_usdt"));
  size_t refused = 0;
  for (size_t len = 0; len < original.size(); len += 97) {
    auto f = load(original.substr(0, len));
    if (!f) {
      ++refused;
      CHECK(!f.error().message().empty());
      continue;
    }
    auto symbols = SymbolTable::read(*f);
    auto notes = read_usdt_notes(*f);
    (void)symbols;
    (void)notes;
  }
  CHECK(refused > 0);
}
