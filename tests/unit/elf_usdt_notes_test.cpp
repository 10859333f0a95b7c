// USDT notes against the oracle `readelf -n`: every provider, name, location, base, semaphore
// and argument string of our samples (x86_64 -O0/-O2/no-pie, aarch64, arm Thumb and A32) and
// of system binaries (libstdc++.so.6, python3.11 with semaphores). Also: semaphore file
// offsets against the .probes section, the .stapsdt.base correction, and malformed notes.
#include "tests/unit/elf_readelf_notes.h"

#include <elf.h>

#include <cstring>

#include "elf/resolve.h"
#include "elf/segments.h"
#include "elf/usdt_args.h"
#include "elf/usdt_notes.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;

namespace {

std::vector<std::string> note_files() {
  return {seed_sample("hello_usdt"),        elf_sample("usdt_args_O0"),
          elf_sample("usdt_args_O2"),       elf_sample("usdt_args_nopie"),
          elf_sample("usdt_args_aarch64"),  elf_sample("usdt_args_arm"),
          elf_sample("usdt_args_a32"),      system_library("libstdc++.so.6"),
          "/usr/bin/python3.11"};
}

// A section's address and file offset as readelf -S reports them (.probes holds sdt.h's
// semaphores, .text the probe sites): an oracle independent of our PT_LOAD arithmetic.
std::pair<uint64_t, uint64_t> section_place(const std::string& path, const std::string& name) {
  std::regex re("\\]\\s+" + std::regex_replace(name, std::regex("\\."), "\\.") +
                "\\s+\\S+\\s+([0-9a-f]+)\\s+([0-9a-f]+)");
  std::smatch m;
  std::string out = run("readelf -SW '" + path + "'");
  REQUIRE_MESSAGE(std::regex_search(out, m, re), "no " << name << " section in " << path);
  return {std::stoull(m[1], nullptr, 16), std::stoull(m[2], nullptr, 16)};
}
std::pair<uint64_t, uint64_t> probes_section(const std::string& path) {
  return section_place(path, ".probes");
}

}  // namespace

TEST_CASE("USDT notes match readelf -n for samples of three architectures and system binaries") {
  size_t with_semaphore = 0, total = 0;
  for (const std::string& path : note_files()) {
    CAPTURE(path);
    auto file = ElfFile::open(path);
    REQUIRE_MESSAGE(file, (file ? "" : file.error().message()));
    auto notes = read_usdt_notes(*file);
    REQUIRE_MESSAGE(notes, (notes ? "" : notes.error().message()));
    std::vector<OracleNote> oracle = readelf_notes(path);
    REQUIRE(!oracle.empty());
    REQUIRE(notes->size() == oracle.size());
    for (size_t i = 0; i < oracle.size(); ++i) {
      const UsdtNote& n = (*notes)[i];
      CAPTURE(n.provider + ":" + n.name);
      check_note_matches(n, oracle[i]);
      // Every probe sits on code.
      CHECK(code_offset(*file, n.address, "probe"));
      // Every argument string parses for the file's own architecture.
      auto args = parse_usdt_args(n.args, file->machine(), file->elf_class());
      CHECK_MESSAGE(args, (args ? "" : args.error().message()));
      if (n.semaphore) {
        ++with_semaphore;
        auto [addr, offset] = probes_section(path);
        auto placed = data_offset(*file, n.semaphore_address, "semaphore");
        REQUIRE(placed);
        CHECK(placed->file_offset == n.semaphore - addr + offset);
      }
      ++total;
    }
  }
  CHECK(with_semaphore > 0);
  MESSAGE(total << " notes compared, " << with_semaphore << " with semaphores");
}

TEST_CASE("probes emitted at several locations are grouped under one name") {
  auto file = ElfFile::open(elf_sample("usdt_args_O2"));
  REQUIRE(file);
  auto notes = read_usdt_notes(*file);
  REQUIRE(notes);
  std::vector<UsdtProbe> probes = group_usdt_probes(*notes);
  // The oracle: how many notes readelf shows per name.
  for (const UsdtProbe& probe : probes) {
    size_t expected = 0;
    for (const OracleNote& o : readelf_notes(elf_sample("usdt_args_O2")))
      expected += o.provider == probe.provider && o.name == probe.name;
    CHECK(probe.locations.size() == expected);
  }
  bool some_multi = false;
  for (const UsdtProbe& probe : probes) some_multi |= probe.locations.size() > 1;
  CHECK(some_multi);  // usdt_args:inlined
}

namespace {

// Byte offset of the .note.stapsdt section's contents in the file, from readelf -S.
uint64_t note_section_offset(const std::string& path) {
  return section_place(path, ".note.stapsdt").second;
}

uint64_t get64(const std::string& bytes, size_t at) {
  uint64_t v;
  memcpy(&v, bytes.data() + at, 8);
  return v;
}
void put64(std::string& bytes, size_t at, uint64_t v) { memcpy(bytes.data() + at, &v, 8); }
void put32(std::string& bytes, size_t at, uint32_t v) { memcpy(bytes.data() + at, &v, 4); }

}  // namespace

TEST_CASE("a prelinked file's stale note addresses are corrected through .stapsdt.base") {
  // What prelink leaves behind: sections moved by D, note contents (never relocated) not. We
  // write the note as it was before such a move: pc, base, semaphore all D lower.
  const std::string path = elf_sample("usdt_args_O2");
  std::string bytes = read_file(path);
  auto original = ElfFile::open(path);
  REQUIRE(original);
  auto before = read_usdt_notes(*original);
  REQUIRE(before);
  uint64_t at = note_section_offset(path) + 12 + 8;  // first note's descriptor
  const uint64_t shift = 0x10000;
  REQUIRE(get64(bytes, at) == (*before)[0].pc);
  put64(bytes, at, get64(bytes, at) - shift);
  put64(bytes, at + 8, get64(bytes, at + 8) - shift);
  put64(bytes, at + 16, get64(bytes, at + 16) - shift);
  auto moved = ElfFile::from_bytes(
      {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "prelinked");
  REQUIRE(moved);
  auto after = read_usdt_notes(*moved);
  REQUIRE(after);
  CHECK((*after)[0].pc == (*before)[0].pc - shift);
  CHECK((*after)[0].address == (*before)[0].address);
  CHECK((*after)[0].semaphore_address == (*before)[0].semaphore_address);
}

TEST_CASE("malformed notes are refused with the note's index") {
  const std::string path = elf_sample("usdt_args_O2");
  std::string bytes = read_file(path);
  uint64_t section = note_section_offset(path);
  auto parse = [&](const std::string& b) {
    auto f = ElfFile::from_bytes({reinterpret_cast<const uint8_t*>(b.data()), b.size()}, "mut");
    REQUIRE(f);
    return read_usdt_notes(*f);
  };
  SUBCASE("descriptor size overflowing the section") {
    std::string b = bytes;
    put32(b, section + 4, 0xfffffff0u);
    auto r = parse(b);
    REQUIRE(!r);
    CHECK(r.error().what.find("note #0") != std::string::npos);
    CHECK(r.error().hint.find("descriptor size") != std::string::npos);
  }
  SUBCASE("name size overflowing the section, in the second note") {
    std::string b = bytes;
    uint32_t namesz, descsz;
    memcpy(&namesz, b.data() + section, 4);
    memcpy(&descsz, b.data() + section + 4, 4);
    uint64_t second = section + 12 + ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
    put32(b, second, 0x7fffffffu);
    auto r = parse(b);
    REQUIRE(!r);
    CHECK(r.error().what.find("note #1") != std::string::npos);
  }
  SUBCASE("strings without their terminating NUL") {
    std::string b = bytes;
    uint32_t descsz;
    memcpy(&descsz, b.data() + section + 4, 4);
    for (uint64_t i = section + 20 + 24; i < section + 20 + descsz; ++i)
      if (b[i] == 0) b[i] = 'x';
    auto r = parse(b);
    REQUIRE(!r);
    CHECK(r.error().what.find("note #0") != std::string::npos);
  }
}

TEST_CASE("resolve_usdt gives every location with its file offset and semaphore ref_ctr_offset") {
  for (const std::string& path : {std::string("/usr/bin/python3.11"), elf_sample("usdt_args_arm"),
                                  elf_sample("libusdt_based.so")}) {
    CAPTURE(path);
    auto binary = Binary::open(path);
    REQUIRE(binary);
    rawprobe::elf::Explain explain;
    auto sites = resolve_usdt(*binary, "", "*", &explain);
    REQUIRE_MESSAGE(sites, (sites ? "" : sites.error().message()));
    std::vector<OracleNote> oracle = readelf_notes(path);
    REQUIRE(sites->size() == oracle.size());
    auto [probes_addr, probes_offset] = probes_section(path);
    auto [text_addr, text_offset] = section_place(path, ".text");
    for (size_t i = 0; i < oracle.size(); ++i) {
      const UsdtSite& s = (*sites)[i];
      CHECK(s.site.address == oracle[i].location);
      CHECK(s.site.file_offset == oracle[i].location - text_addr + text_offset);
      if (oracle[i].semaphore)
        CHECK(s.site.ref_ctr_offset == oracle[i].semaphore - probes_addr + probes_offset);
      else
        CHECK(s.site.ref_ctr_offset == 0);
    }
    CHECK(explain.steps.size() >= 3 * oracle.size());
  }
  auto binary = Binary::open(elf_sample("usdt_args_O2"));
  REQUIRE(binary);
  auto missing = resolve_usdt(*binary, "usdt_args", "nope");
  REQUIRE(!missing);
  CHECK(missing.error().message().find("USDT notes in the file") != std::string::npos);
}
