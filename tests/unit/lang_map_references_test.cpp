// The checker keeps every map's MapInfo in one growing vector; a map first named inside the
// key or value of another map's use adds to it while that use is being checked. These scripts
// make the vector grow at each such point; under `make asan` a reference kept across the
// growth is a heap-use-after-free report, and here the types and errors show what was read.
#include <doctest/doctest.h>

#include "engine/lang/frontend.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;

namespace {

const lang::MapInfo& map_named(const lang::FrontEndResult& r, const std::string& name) {
  int id = r.program.info.find_map(name);
  REQUIRE(id >= 0);
  return r.program.info.maps[size_t(id)];
}

}  // namespace

TEST_CASE("a map first named in another map's key is reported as undefined, and the outer map keeps its type") {
  lang::FrontEndResult r = test::front_end("BEGIN { @a[@b] = 1; }", "t.bt");
  REQUIRE_FALSE(r.ok);
  CHECK(test::error_text(r) == "t.bt:1:12: error: Undefined map: @b\nBEGIN { @a[@b] = 1; }\n           ^~\n");
  CHECK(map_named(r, "@a").value.is_integer());
}

TEST_CASE("maps first named in keys and values while other maps are checked get their own types") {
  // Each new name grows the map table while an assignment, a key, op= or ++ is being checked.
  std::string script =
      "BEGIN { @k0 = 1; @k1 = \"s\"; @k2 = 2; @k3 = 3; @k4 = 4; @k5 = 5; @k6 = 6; @k7 = 7; @k8 = 8; } "
      "END { @a[@k0, @k1] = @k2; @b += @k3; @c[@k4]++; @d = (@k5, @k6); @e[@k7] = @k8 + 1; }";
  lang::FrontEndResult r = test::front_end(script, "t.bt");
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  const lang::MapInfo& a = map_named(r, "@a");
  REQUIRE(a.key.size() == 2);
  CHECK(a.key[0].is_integer());
  CHECK(a.key[1].is_string());
  CHECK(a.value.is_integer());
  CHECK(map_named(r, "@b").value.is_integer());
  CHECK(map_named(r, "@c").key.size() == 1);
  CHECK(map_named(r, "@d").value.kind == TypeKind::Tuple);
  CHECK(map_named(r, "@e").value.is_integer());
}
