// One error per cause: when an expression fails its check (an unreadable tracefs, an unknown
// field, function or identifier), the maps and variables it was assigned to are not reported
// again as undefined, nor are the operators applied to them. Each case checks the whole
// rendered error text, so no second error can hide in it.
#include <doctest/doctest.h>

#include "engine/lang/frontend.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;

namespace {

// A catalog whose tracepoints cannot be read at all, as on a machine where tracefs is missing
// and cannot be mounted.
class UnreadableTracepoints : public lang::TracepointCatalog {
 public:
  Result<std::vector<std::pair<std::string, std::string>>> match(const std::string&, const std::string&) override {
    return make_error("find tracefs", "/sys/kernel/tracing", "mount it");
  }
  Result<std::vector<lang::TracepointField>> fields(const std::string&, const std::string&) override {
    return make_error("find tracefs", "/sys/kernel/tracing", "mount it");
  }
};

lang::FrontEndResult without_tracefs(const std::string& text) {
  static UnreadableTracepoints catalog;
  lang::SourceFile src("t.bt", text);
  lang::SemanticOptions opts;
  opts.tracepoints = &catalog;
  return lang::run_front_end(src, opts);
}

// "t.bt:1:COL: error: MESSAGE\nLINE\n" and a caret under WIDTH characters from COL.
std::string rendered(const std::string& line, size_t col, size_t width, const std::string& message) {
  return "t.bt:1:" + std::to_string(col) + ": error: " + message + "\n" + line + "\n" + std::string(col - 1, ' ') +
         "^" + std::string(width - 1, '~') + "\n";
}

size_t column_of(const std::string& line, const std::string& part) { return line.find(part) + 1; }

}  // namespace

TEST_CASE("a tracepoint block without tracefs: the tracefs error only, not 'tracepoint not found' nor 'Undefined map'") {
  // make demo's read_rand script as a new user first ran it on a machine without tracefs.
  std::string script =
      "uprobe:/bin/sh:main { @start[tid] = nsecs; } "
      "tracepoint:syscalls:sys_exit_read /comm == \"read_rand\"/ { @ret[tid] = args->ret; } END { print(@ret); }";
  lang::FrontEndResult r = without_tracefs(script);
  REQUIRE_FALSE(r.ok);
  std::string spec = "tracepoint:syscalls:sys_exit_read";
  CHECK(test::error_text(r) == rendered(script, column_of(script, spec), spec.size(), "find tracefs (/sys/kernel/tracing); mount it"));
}

TEST_CASE("an unknown tracepoint field: one error, whatever the value flows into") {
  if (!test::tracefs_readable()) {
    MESSAGE("tracefs not readable: run as root");
    return;
  }
  std::string script =
      "tracepoint:syscalls:sys_exit_read { @r = args->nosuch; $x = args->nosuch; @y = $x + 1; @z += args->nosuch; "
      "@h = hist(args->nosuch); } END { print(@r); print(@y); print(@z); print(@h); }";
  lang::FrontEndResult r = test::front_end(script, "t.bt");
  REQUIRE_FALSE(r.ok);
  std::string message =
      "Struct/union of type 'struct _tracepoint_syscalls_sys_exit_read' does not contain a field named 'nosuch'";
  std::string expected;
  size_t at = 0;
  for (int i = 0; i < 4; ++i) {
    at = script.find("args->nosuch", at);
    expected += rendered(script, at + 1, std::string("args->nosuch").size(), message);
    at += 1;
  }
  CHECK(test::error_text(r) == expected);
}

TEST_CASE("an unknown function or identifier: one error, not also 'Undefined map' or 'Undefined variable'") {
  std::string script = "BEGIN { @x = nosuchfn(1); $v = nosuch2(); @w[$v] = 1; @s = sum(pidd); $v += 1; } "
                       "END { print(@x); print(@w); print(@s); }";
  lang::FrontEndResult r = test::front_end(script, "t.bt");
  REQUIRE_FALSE(r.ok);
  CHECK(test::error_text(r) == rendered(script, column_of(script, "nosuchfn(1)"), std::string("nosuchfn(1)").size(),
                             "Unknown function: nosuchfn") +
                        rendered(script, column_of(script, "nosuch2()"), std::string("nosuch2()").size(),
                                 "Unknown function: nosuch2") +
                        rendered(script, column_of(script, "pidd"), 4, "Unknown identifier: 'pidd'; did you mean 'pid'?"));
}

TEST_CASE("a map that is really never assigned is still an 'Undefined map'") {
  std::string script = "BEGIN { @x = nosuchfn(1); } END { print(@never); }";
  lang::FrontEndResult r = test::front_end(script, "t.bt");
  REQUIRE_FALSE(r.ok);
  CHECK(test::error_text(r) == rendered(script, column_of(script, "nosuchfn(1)"), std::string("nosuchfn(1)").size(),
                             "Unknown function: nosuchfn") +
                        rendered(script, column_of(script, "@never"), std::string("@never").size(),
                                 "Undefined map: @never"));
}
