// "0x1f40" for addresses and offsets in messages.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace rawprobe::elf {

inline std::string hex(uint64_t value) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(value));
  return buf;
}

}  // namespace rawprobe::elf
