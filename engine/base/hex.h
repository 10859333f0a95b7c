// Hexadecimal text for messages and listings: "0x1f40" for addresses and offsets, "7f 45 4c"
// or "7f454c" for bytes. Shared by elf/ and engine/.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

namespace rawprobe {

// The value of one hex digit, or -1.
inline int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

inline std::string hex(uint64_t value) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

// Two lowercase digits per byte, `separator` between them, at most `max` bytes.
inline std::string hex_bytes(std::span<const uint8_t> bytes, std::string_view separator = " ",
                             size_t max = SIZE_MAX) {
  std::string out;
  char buf[4];
  for (size_t i = 0; i < bytes.size() && i < max; ++i) {
    snprintf(buf, sizeof buf, "%02x", bytes[i]);
    if (i) out += separator;
    out += buf;
  }
  return out;
}

}  // namespace rawprobe
