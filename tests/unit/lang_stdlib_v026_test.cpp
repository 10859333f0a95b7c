// More of bpftrace 0.26.1's standard library in the front end and in output: printf's %s of a
// bool. The expected text comes from bpftrace's own sources and tests, cited at each case; the
// kernel tests (tests/kernel/stdlib_*_test.cpp) run the same functions for real.
#include <doctest/doctest.h>

#include <cstring>

#include "engine/base/layout.h"
#include "engine/output/printf_format.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;

namespace {

// The text `fmt` gives for these bools, each stored as the program stores one (8 bytes, 0 or 1).
std::string format_bools(const std::string& fmt, const std::vector<bool>& values) {
  std::vector<Type> types(values.size(), Type::boolean());
  Result<PrintfFormatter> f = PrintfFormatter::make(fmt, types);
  REQUIRE_MESSAGE(f.ok(), f.error().message());
  StructLayout layout = layout_of(types);
  std::vector<uint8_t> args(layout.size, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    uint64_t v = values[i];
    std::memcpy(args.data() + layout.offsets[i], &v, 8);
  }
  std::string out;
  f->append(out, args.data(), args.size());
  return out;
}

}  // namespace

// bpftrace's src/format_string.cpp (0.22 on): "s" requires no type ("Anything goes") and
// streams the value, and a bool value prints as true or false (tests/runtime/bool: print of
// (true, false) is "(true, false)"); %d takes a bool as an integer.
TEST_CASE("printf's %s prints a bool as true or false, with C's width and flags; %d as 1 or 0") {
  CHECK(format_bools("%s %s", {true, false}) == "true false");
  CHECK(format_bools("%d %d", {true, false}) == "1 0");
  char padded[64];
  std::snprintf(padded, sizeof padded, "[%-7s][%6s]", "true", "false");
  CHECK(format_bools("[%-7s][%6s]", {true, false}) == padded);
}

TEST_CASE("the semantic pass takes %s of a bool and refuses %r of one, at the call") {
  lang::FrontEndResult ok = test::front_end("BEGIN { $b = 1 < 2; printf(\"%s %s %d\\n\", $b, !$b, $b); }", "t.bt");
  CHECK_MESSAGE(ok.ok, test::error_text(ok));
  lang::FrontEndResult bad = test::front_end("BEGIN {\n  printf(\"%r\\n\", true);\n}", "t.bt");
  CHECK_FALSE(bad.ok);
  CHECK_MESSAGE(test::error_text(bad).find("t.bt:2:3: error: printf: %r specifier expects a value of type buffer") !=
                    std::string::npos,
                test::error_text(bad));
}
