// Point ids (`probe`, `func`) become the text output prints: the types grow to strings as
// long as the longest name, tuple fields move to their new offsets, other fields keep their
// bytes, and an id outside the table prints as an empty string instead of reading past it.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "engine/base/layout.h"
#include "engine/runtime/point_text.h"

using namespace rawprobe;
using namespace rawprobe::runtime;

namespace {

const Type kProbe{TypeKind::Probe, 8, false, {}};
const Type kFunc{TypeKind::Func, 8, false, {}};

std::string string_at(const uint8_t* p, size_t n) {
  return std::string(reinterpret_cast<const char*>(p), strnlen(reinterpret_cast<const char*>(p), n));
}

}  // namespace

TEST_CASE("point ids print as their probe and function names") {
  std::vector<codegen::PointName> names = {{"uprobe:/tmp/fun:foo", "foo"}, {"uretprobe:/tmp/fun:bar", "bar"}};
  PointText text(&names);

  CHECK(PointText::has_ids(kProbe));
  CHECK(PointText::has_ids(tuple_of({Type::integer(8, false), kFunc})));
  CHECK_FALSE(PointText::has_ids(tuple_of({Type::integer(8, false), Type::string(16)})));
  // Longest name plus its NUL.
  CHECK(text.text_type(kProbe) == Type::string(23));
  CHECK(text.text_type(kFunc) == Type::string(4));

  // A printf record { u32 n; probe; (func, u64) }: ids at 8 and 16, the u64 at 24.
  std::vector<Type> types = {Type::integer(4, false), kProbe, tuple_of({kFunc, Type::integer(8, false)})};
  std::vector<uint8_t> in(layout_of(types).size, 0);
  uint32_t n = 7;
  uint64_t probe = 1, func = 0, value = 99;
  std::memcpy(in.data(), &n, 4);
  std::memcpy(in.data() + 8, &probe, 8);
  std::memcpy(in.data() + 16, &func, 8);
  std::memcpy(in.data() + 24, &value, 8);

  std::vector<Type> out_types = text.text_types(types);
  StructLayout out = layout_of(out_types);
  std::vector<uint8_t> bytes(out.size, 0xff);
  text.write_text(types, in.data(), bytes.data());
  uint32_t n_out;
  std::memcpy(&n_out, bytes.data() + out.offsets[0], 4);
  CHECK(n_out == 7);
  CHECK(string_at(bytes.data() + out.offsets[1], 23) == "uretprobe:/tmp/fun:bar");
  StructLayout inner = layout_of(out_types[2].fields);
  const uint8_t* tuple = bytes.data() + out.offsets[2];
  CHECK(string_at(tuple + inner.offsets[0], 4) == "foo");
  uint64_t value_out;
  std::memcpy(&value_out, tuple + inner.offsets[1], 8);
  CHECK(value_out == 99);
}

TEST_CASE("an id outside the table prints as an empty string") {
  std::vector<codegen::PointName> names = {{"BEGIN", ""}};
  PointText text(&names);
  uint64_t id = 5;
  uint8_t out[8];
  std::memset(out, 'x', sizeof out);
  text.write_text(kProbe, reinterpret_cast<const uint8_t*>(&id), out);
  CHECK(string_at(out, 6) == "");
  PointText none;
  CHECK(none.text_type(kFunc) == Type::string(1));
}
