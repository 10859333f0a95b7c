// Reading a value out of raw bytes: map keys and values, event records. Those bytes are not
// necessarily aligned for the type, so they are copied, never dereferenced in place.
#pragma once
#include <cstdint>
#include <cstring>

namespace rawprobe {

template <class T>
T load_unaligned(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace rawprobe
