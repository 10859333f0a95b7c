// test:NAME and bench:NAME specs, and how a run picks its probes from --test, --bench and
// --probe-filter (engine/driver/point_selection.h): the points below are the input, and each
// expectation is which of them survive.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/driver/point_selection.h"
#include "engine/lang/probe_spec.h"

using namespace rawprobe;
using namespace rawprobe::driver;
using probes::ProbeKind;

namespace {

probes::AttachPoint point(ProbeKind kind, std::string name) {
  probes::AttachPoint p;
  p.kind = kind;
  p.name = std::move(name);
  return p;
}

using Blocks = std::vector<std::vector<probes::AttachPoint>>;

// The names left in each block.
std::vector<std::vector<std::string>> names(const Blocks& blocks) {
  std::vector<std::vector<std::string>> out;
  for (const auto& b : blocks) {
    out.emplace_back();
    for (const probes::AttachPoint& p : b) out.back().push_back(p.name);
  }
  return out;
}

Blocks script_points() {
  return {{point(ProbeKind::Begin, "BEGIN")},
          {point(ProbeKind::Tracepoint, "tracepoint:syscalls:sys_enter_read"),
           point(ProbeKind::Tracepoint, "tracepoint:syscalls:sys_enter_write")},
          {point(ProbeKind::Test, "test:parse"), point(ProbeKind::Test, "test:format")},
          {point(ProbeKind::Bench, "bench:lookup")},
          {point(ProbeKind::End, "END")}};
}

}  // namespace

TEST_CASE("test:NAME and bench:NAME parse with their name; other shapes are refused") {
  lang::ProbeSpec spec;
  REQUIRE(lang::parse_probe_spec("test:parse_header", {}, spec));
  CHECK(spec.kind == ProbeKind::Test);
  CHECK(spec.name == "parse_header");
  CHECK(spec.canonical() == "test:parse_header");
  REQUIRE(lang::parse_probe_spec("bench:lookup", {}, spec));
  CHECK(spec.kind == ProbeKind::Bench);
  CHECK(spec.name == "lookup");
  for (const char* bad : {"test", "test:", "bench:a:b"}) {
    CAPTURE(bad);
    Status s = lang::parse_probe_spec(bad, {}, spec);
    REQUIRE_FALSE(s);
    CHECK(s.error().message().find("probe type requires 1 argument") != std::string::npos);
  }
}

TEST_CASE("an ordinary run leaves test: and bench: blocks out; --test and --bench keep only theirs") {
  Blocks ordinary = script_points();
  REQUIRE(select_points(ordinary, {}));
  CHECK(names(ordinary) == std::vector<std::vector<std::string>>{
                               {"BEGIN"},
                               {"tracepoint:syscalls:sys_enter_read", "tracepoint:syscalls:sys_enter_write"},
                               {},
                               {},
                               {"END"}});
  Blocks tests = script_points();
  REQUIRE(select_points(tests, {BlockSet::Tests}));
  CHECK(names(tests) == std::vector<std::vector<std::string>>{{}, {}, {"test:parse", "test:format"}, {}, {}});
  Blocks benches = script_points();
  REQUIRE(select_points(benches, {BlockSet::Benches}));
  CHECK(names(benches) == std::vector<std::vector<std::string>>{{}, {}, {}, {"bench:lookup"}, {}});

  Blocks none = {{point(ProbeKind::Begin, "BEGIN")}};
  Status s = select_points(none, {BlockSet::Tests});
  REQUIRE_FALSE(s);
  CHECK(s.error().what == "--test: the script has no test: block");
}

TEST_CASE("--probe-filter keeps the probes its regex finds in their names, and BEGIN and END always") {
  std::string write = "write$";
  Blocks b = script_points();
  REQUIRE(select_points(b, {BlockSet::Ordinary, &write}));
  CHECK(names(b) == std::vector<std::vector<std::string>>{
                        {"BEGIN"}, {"tracepoint:syscalls:sys_enter_write"}, {}, {}, {"END"}});

  std::string format = "^test:f";
  Blocks t = script_points();
  REQUIRE(select_points(t, {BlockSet::Tests, &format}));
  CHECK(names(t) == std::vector<std::vector<std::string>>{{}, {}, {"test:format"}, {}, {}});

  std::string nothing = "sys_enter_open";
  Blocks n = script_points();
  Status s = select_points(n, {BlockSet::Ordinary, &nothing});
  REQUIRE_FALSE(s);
  CHECK(s.error().what == "--probe-filter 'sys_enter_open' matches none of the script's 2 probes");

  std::string broken = "sys_enter_(read";
  Blocks r = script_points();
  s = select_points(r, {BlockSet::Ordinary, &broken});
  REQUIRE_FALSE(s);
  CHECK(s.error().message().find("--probe-filter 'sys_enter_(read' is not a regular expression: ") == 0);
}
