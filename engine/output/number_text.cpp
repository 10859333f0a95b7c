#include "engine/output/number_text.h"

#include "engine/base/bytes.h"

namespace rawprobe {

namespace {
template <class T>
T load(const uint8_t* p) { return load_unaligned<T>(p); }
}  // namespace

uint64_t read_widened(const uint8_t* p, uint32_t size, bool is_signed) {
  switch (size) {
    case 1: return is_signed ? uint64_t(int64_t(load<int8_t>(p))) : load<uint8_t>(p);
    case 2: return is_signed ? uint64_t(int64_t(load<int16_t>(p))) : load<uint16_t>(p);
    case 4: return is_signed ? uint64_t(int64_t(load<int32_t>(p))) : load<uint32_t>(p);
    case 8: return load<uint64_t>(p);
    default: return 0;
  }
}

}  // namespace rawprobe
