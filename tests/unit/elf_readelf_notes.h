// The oracle `readelf -nW` for USDT notes, shared by the elf_usdt_* tests: each stapsdt note's
// provider, name, argument string, location, base and semaphore as binutils prints them.
// readelf decodes notes of any architecture and byte order (s390x's are big-endian).
#pragma once
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "elf/usdt_notes.h"
#include "tests/unit/elf_test_support.h"

namespace rawprobe::elf::test {

struct OracleNote {
  std::string provider, name, args;
  uint64_t location = 0, base = 0, semaphore = 0;
};

inline std::vector<OracleNote> readelf_notes(const std::string& path) {
  std::vector<OracleNote> notes;
  bool in_stapsdt = false;
  std::regex loc(R"(Location: (0x[0-9a-f]+), Base: (0x[0-9a-f]+), Semaphore: (0x[0-9a-f]+))");
  for (const std::string& line : lines(run("readelf -nW '" + path + "'"))) {
    if (line.rfind("Displaying notes found in:", 0) == 0)
      in_stapsdt = line.find(".note.stapsdt") != std::string::npos;
    if (!in_stapsdt) continue;
    std::smatch m;
    auto field = [&](const char* key) -> const char* {
      const char* at = strstr(line.c_str(), key);
      return at ? at + strlen(key) : nullptr;
    };
    if (const char* v = field("Provider: ")) notes.push_back({v, "", "", 0, 0, 0});
    else if (const char* n = field("Name: ")) notes.back().name = n;
    else if (const char* a = field("Arguments: ")) notes.back().args = a;
    else if (std::regex_search(line, m, loc)) {
      notes.back().location = std::stoull(m[1], nullptr, 16);
      notes.back().base = std::stoull(m[2], nullptr, 16);
      notes.back().semaphore = std::stoull(m[3], nullptr, 16);
    }
  }
  return notes;
}

// Our note equals readelf's in every field. The files the tests read are not prelinked, so
// the .stapsdt.base correction must be zero.
inline void check_note_matches(const UsdtNote& n, const OracleNote& oracle) {
  CHECK(n.provider == oracle.provider);
  CHECK(n.name == oracle.name);
  CHECK(n.pc == oracle.location);
  CHECK(n.base == oracle.base);
  CHECK(n.semaphore == oracle.semaphore);
  CHECK(n.args == oracle.args);
  CHECK(n.address == n.pc);
}

}  // namespace rawprobe::elf::test
