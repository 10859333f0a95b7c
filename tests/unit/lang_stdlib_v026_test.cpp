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

// Each script is refused with its message (file:line:col and the words).
void check_refused(const std::vector<std::pair<std::string, std::string>>& refused) {
  // Not a structured binding: clang 14 (the fuzz build's) cannot capture one in CAPTURE's lambda.
  for (const std::pair<std::string, std::string>& each : refused) {
    const std::string& script = each.first;
    const std::string& message = each.second;
    CAPTURE(script);
    lang::FrontEndResult r = test::front_end(script, "t.bt");
    CHECK_FALSE(r.ok);
    CHECK_MESSAGE(test::error_text(r).find(message) != std::string::npos, test::error_text(r));
  }
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

// docs/stdlib.md (v0.26.1), find: `boolean find(map m, mapkey k, mapvalue result)`, "sets the
// passed scratch variable (result) ... Error if called with a map that has no keys".
TEST_CASE("find(@m, k, $v) is a bool and gives $v the map's value type; misuse is refused where it is") {
  lang::FrontEndResult ok = test::front_end("BEGIN { @m[1] = \"abc\"; let $v; $found = find(@m, 1, $v); print(($found, $v)); }", "t.bt");
  REQUIRE_MESSAGE(ok.ok, test::error_text(ok));
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"BEGIN { @x = 1; $r = find(@x, 1, $v); }", "t.bt:1:27: error: Argument mismatch for @x"},
      {"BEGIN { @m[1] = 2; $r = find(@m, 1, 5); }",
       "t.bt:1:37: error: find() sets a scratch variable: its third argument must be one ($v)"},
      {"BEGIN { @m[1] = count(); $r = find(@m, 1, $v); }", "t.bt:1:36: error: find() copies a map's value, and @m holds count() values"},
      {"BEGIN { @m[1] = \"s\"; $v = 1; $r = find(@m, 1, $v); }",
       "t.bt:1:47: error: Type mismatch for $v: find() would set it to a value of type 'string[2]'"},
      {"BEGIN { $r = find(1, 1, $v); }", "t.bt:1:14: error: find() expects a map without keys as its first argument and the key as its second: find(@m, k, $v)"},
  };
  check_refused(refused);
}

// docs/stdlib.md (v0.26.1), tseries: `tseries_t tseries(int64 n, int64 interval_ns, int64
// num_intervals[, const string agg])`, agg one of avg, max, min, sum.
TEST_CASE("tseries takes an integer, a literal interval and count, and one of the docs' aggregations") {
  for (const char* ok : {"BEGIN { @a = tseries(1, 100ms, 5); }", "BEGIN { @a[comm] = tseries(pid, 1000000000, 20, \"avg\"); }",
                         "BEGIN { @a = tseries(-1, 1s, 3, \"min\"); @b = tseries(1, 1s, 3, \"max\"); @c = tseries(1, 1s, 3, \"sum\"); }"}) {
    CAPTURE(ok);
    lang::FrontEndResult r = test::front_end(ok, "t.bt");
    CHECK_MESSAGE(r.ok, test::error_text(r));
  }
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"BEGIN { @a = tseries(1, 0, 5); }", "t.bt:1:25: error: tseries() expects its interval as a positive integer literal"},
      {"BEGIN { @a = tseries(1, $1, 5); }", "t.bt:1:25: error: tseries() expects its interval as a positive integer literal"},
      {"BEGIN { @a = tseries(1, 100ms, 5000); }", "t.bt:1:32: error: tseries() expects the number of intervals as an integer literal from 1 to 1024"},
      {"BEGIN { @a = tseries(1, 1s, 5, \"median\"); }", "t.bt:1:32: error: tseries() aggregates an interval by \"avg\", \"max\", \"min\" or \"sum\""},
      {"BEGIN { @a = tseries(\"x\", 1s, 5); }", "t.bt:1:22: error: tseries() records integers (string provided)"},
      {"BEGIN { $x = tseries(1, 1s, 5); }", "t.bt:1:14: error: tseries() should be directly assigned to a map"},
  };
  check_refused(refused);
}

// socket_cookie (docs/stdlib.md: bpf_get_socket_cookie, shown in an fentry probe) has the
// helper only in fentry, fexit and iter programs; write_user is unsafe, as docs/stdlib.md's
// "unsafe helpers ... the --unsafe flag is required for use".
TEST_CASE("socket_cookie outside tracing programs and write_user without --unsafe are refused at the call") {
  check_refused({
      {"BEGIN {\n  @[socket_cookie(curtask)] = count();\n}",
       "t.bt:2:5: error: socket_cookie() calls bpf_get_socket_cookie(), which the kernel gives only to fentry, fexit "
       "and iter programs (Linux 5.12), not to BEGIN probes"},
      {"interval:s:1 { $r = write_user(0, (int32)1); }",
       "t.bt:1:21: error: write_user() is an unsafe function being used in safe mode"},
  });
}
