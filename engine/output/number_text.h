// Appending numbers to a string without a temporary std::string per number (the printf and
// map paths run per event / per entry).
#pragma once
#include <charconv>
#include <cstdint>
#include <string>

namespace rawprobe {

template <class Int>
inline void append_number(std::string& out, Int value, int base = 10) {
  char buf[72];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, base);
  (void)ec;  // 72 chars hold any 64-bit integer in any base >= 2
  out.append(buf, end);
}

// Reads an integer of 1, 2, 4 or 8 bytes (host byte order) and widens it to 64 bits: sign
// extension when is_signed, zero extension otherwise. Other sizes read as 0.
uint64_t read_widened(const uint8_t* p, uint32_t size, bool is_signed);

}  // namespace rawprobe
