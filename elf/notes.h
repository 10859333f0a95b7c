// ELF note areas (SHT_NOTE sections, PT_NOTE segments) split into their notes, with every
// size checked against the area:
//
//   namesz u32 | descsz u32 | type u32 | name (namesz, padded to 4) | desc (descsz, padded)
#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "engine/base/result.h"

namespace rawprobe::elf {

struct RawNote {
  size_t index = 0;      // position in the area, 0-based
  uint64_t offset = 0;   // of the note header inside the area
  std::string_view owner;  // the name without its trailing NUL
  uint32_t type = 0;
  std::span<const uint8_t> desc;
};

// Errors name the note's index and the area (`area` is e.g. ".note.stapsdt").
Result<std::vector<RawNote>> split_notes(std::span<const uint8_t> area, bool little_endian,
                                         std::string_view area_name);

}  // namespace rawprobe::elf
