// Splitting note areas.
#include "elf/notes.h"

#include "elf/byte_order.h"
#include "elf/hex.h"

namespace rawprobe::elf {

Result<std::vector<RawNote>> split_notes(std::span<const uint8_t> bytes, bool little_endian,
                                         std::string_view area_name) {
  std::vector<RawNote> notes;
  auto align4 = [](uint64_t v) { return (v + 3) & ~uint64_t{3}; };
  uint64_t pos = 0;
  for (size_t index = 0; pos < bytes.size(); ++index) {
    const uint64_t start = pos;
    auto fail = [&](const std::string& why) {
      return make_error("parse note #" + std::to_string(index),
                        std::string(area_name) + " offset " + hex(start),
                        why + "; the note area is malformed (was the file truncated or "
                              "post-processed?)");
    };
    if (bytes.size() - pos < 12)
      return fail("only " + std::to_string(bytes.size() - pos) +
                  " bytes left, less than a 12-byte note header");
    uint64_t namesz = read_uint(&bytes[pos], 4, little_endian);
    uint64_t descsz = read_uint(&bytes[pos + 4], 4, little_endian);
    uint32_t type = static_cast<uint32_t>(read_uint(&bytes[pos + 8], 4, little_endian));
    pos += 12;
    // 64-bit sums of 32-bit sizes cannot overflow; each is compared with what is left.
    if (align4(namesz) > bytes.size() - pos)
      return fail("name size " + std::to_string(namesz) + " runs past the end of the area");
    std::string_view owner(reinterpret_cast<const char*>(&bytes[pos]), namesz);
    if (!owner.empty() && owner.back() == '\0') owner.remove_suffix(1);
    pos += align4(namesz);
    if (descsz > bytes.size() - pos)
      return fail("descriptor size " + std::to_string(descsz) + " runs past the end of the area");
    notes.push_back({index, start, owner, type, bytes.subspan(pos, descsz)});
    pos += std::min<uint64_t>(align4(descsz), bytes.size() - pos);
  }
  return notes;
}

}  // namespace rawprobe::elf
