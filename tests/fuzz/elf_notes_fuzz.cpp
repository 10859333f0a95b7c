// libFuzzer target: .note.stapsdt contents. The first byte picks byte order and address size
// (so 32-bit and big-endian layouts are exercised too); the rest is the section.
#include <elf.h>

#include <cstddef>
#include <cstdint>

#include "elf/notes.h"
#include "elf/usdt_notes.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  bool little = !(data[0] & 1);
  uint8_t elf_class = (data[0] & 2) ? ELFCLASS32 : ELFCLASS64;
  std::span<const uint8_t> section(data + 1, size - 1);
  (void)rawprobe::elf::split_notes(section, little, "fuzz");
  if (auto notes = rawprobe::elf::parse_stapsdt_notes(section, little, elf_class))
    rawprobe::elf::group_usdt_probes(*notes);
  return 0;
}
