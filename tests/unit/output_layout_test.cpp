// layout_of() against the C compiler's own struct layout (offsetof/sizeof): the code
// generator writes by layout_of(), so it must be the C rule the comments promise.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>

#include "engine/base/layout.h"
#include "engine/output/map_print.h"

using namespace rawprobe;

namespace {
struct Mixed {
  int8_t a;
  int64_t b;
  char s[3];
  int16_t c;
  uint32_t d;
  char t[16];
  uint8_t e;
};
struct Inner {
  char s[5];
  int32_t v;
};
struct Outer {
  int8_t a;
  Inner in;
  int16_t b;
};
}  // namespace

TEST_CASE("layout_of follows the C struct rule") {
  auto layout = layout_of({Type::integer(1, true), Type::integer(8, true), Type::string(3),
                           Type::integer(2, true), Type::integer(4, false), Type::string(16),
                           Type::integer(1, false)});
  CHECK(layout.offsets == std::vector<uint32_t>{offsetof(Mixed, a), offsetof(Mixed, b),
                                                offsetof(Mixed, s), offsetof(Mixed, c),
                                                offsetof(Mixed, d), offsetof(Mixed, t),
                                                offsetof(Mixed, e)});
  CHECK(layout.size == sizeof(Mixed));
  CHECK(layout.align == alignof(Mixed));
}

TEST_CASE("tuples nest with their own alignment") {
  Type inner = tuple_of({Type::string(5), Type::integer(4, true)});
  CHECK(inner.size == sizeof(Inner));
  auto layout = layout_of({Type::integer(1, true), inner, Type::integer(2, true)});
  CHECK(layout.offsets == std::vector<uint32_t>{offsetof(Outer, a), offsetof(Outer, in),
                                                offsetof(Outer, b)});
  CHECK(layout.size == sizeof(Outer));
}

TEST_CASE("per-CPU value sizes follow the kernel's 8-byte slot rounding") {
  MapDesc map;
  map.value = Type{TypeKind::Count, 8, false, {}};
  map.ncpus = 3;
  CHECK(map_value_size(map) == 3 * sizeof(uint64_t));
  map.value = Type{TypeKind::Stats, 16, true, {}};
  CHECK(map_value_size(map) == 3 * 2 * sizeof(int64_t));
  map.value = Type::integer(4, false);
  map.ncpus = 1;
  CHECK(map_value_size(map) == sizeof(uint32_t));
}
