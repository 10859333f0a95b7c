// USDT probes from .note.stapsdt (SystemTap SDT v3 notes). Each note is one probe location:
//
//   namesz descsz type=3 | "stapsdt\0" | pc | base | semaphore | provider\0 name\0 args\0
//                                        \__ address-sized (4 or 8 bytes) __/
//
// pc and semaphore are link-time addresses. If a prelinker moved the file after linking, the
// note (not relocated) still holds the old ones; the distance between the note's base and the
// current address of the .stapsdt.base section corrects both.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "elf/elf_file.h"

namespace rawprobe::elf {

struct UsdtNote {
  size_t index = 0;  // 0-based position among the section's notes, named in errors
  std::string provider, name, args;
  uint64_t pc = 0, base = 0, semaphore = 0;  // as written (what `readelf -n` prints)
  uint64_t address = 0;                      // pc corrected by .stapsdt.base
  uint64_t semaphore_address = 0;            // semaphore corrected likewise; 0 = none
};

// One provider:name with every location the compiler emitted for it (inlining and loop
// unrolling copy the probe site).
struct UsdtProbe {
  std::string provider, name;
  std::vector<UsdtNote> locations;
};

// Parses a .note.stapsdt section's bytes. Every length and string is checked against the
// section; a malformed note is an error naming its index. Notes of other owners are skipped.
Result<std::vector<UsdtNote>> parse_stapsdt_notes(std::span<const uint8_t> section,
                                                  bool little_endian, uint8_t elf_class);

// The file's notes with the .stapsdt.base correction applied; empty when it has none.
Result<std::vector<UsdtNote>> read_usdt_notes(const ElfFile& file);

// Notes grouped by provider:name, in the order each probe first appears.
std::vector<UsdtProbe> group_usdt_probes(std::span<const UsdtNote> notes);

}  // namespace rawprobe::elf
