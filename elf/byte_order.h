// Reading fixed-width integers of either byte order out of raw file bytes (notes are read
// from the mapped file directly, so a big-endian s390x binary parses the same on x86_64).
#pragma once
#include <cstddef>
#include <cstdint>

namespace rawprobe::elf {

// `width` bytes (1..8) at `p`; the caller has checked that they lie inside the buffer.
inline uint64_t read_uint(const uint8_t* p, size_t width, bool little_endian) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) {
    uint64_t byte = p[little_endian ? i : width - 1 - i];
    v |= byte << (8 * i);
  }
  return v;
}

}  // namespace rawprobe::elf
