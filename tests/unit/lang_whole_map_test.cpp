// print(@m), clear(@m) and zero(@m) name a map as a whole: a keyed map is passed without its
// keys (bpftrace 0.17 accepts all three), while delete() still needs the element's key.
#include <doctest/doctest.h>

#include "tests/unit/lang_fixture.h"

using rawprobe::test::error_text;
using rawprobe::test::front_end;

TEST_CASE("whole-map functions accept a keyed map without its keys") {
  for (const char* fn : {"print", "clear", "zero"}) {
    std::string script = std::string("BEGIN { @m[1, \"a\"] = count(); ") + fn + "(@m); }";
    auto r = front_end(script);
    INFO(script << "\n" << error_text(r));
    CHECK(r.ok);
  }
  auto indexed = front_end("BEGIN { @m[1] = 1; clear(@m[1]); }");
  CHECK_FALSE(indexed.ok);
  CHECK(error_text(indexed).find("should not be indexed by a key") != std::string::npos);
  auto keyless_delete = front_end("BEGIN { @m[1] = 1; delete(@m); }");
  CHECK_FALSE(keyless_delete.ok);
  CHECK(error_text(keyless_delete).find("needs the key") != std::string::npos);
}
