// -V and --version print the version in bpftrace's form ("bpftrace v0.17.0"), so scripts that
// read a tracer's version parse rawprobe's alike.
#include <doctest/doctest.h>

#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

TEST_SUITE_BEGIN("host-only");

TEST_CASE("-V and --version print 'rawprobe vX.Y.Z' as bpftrace prints 'bpftrace vX.Y.Z'") {
  RunResult oracle = run({"bpftrace", "-V"});
  REQUIRE(oracle.status == 0);
  const std::regex form(R"(^([a-z]+) v[0-9]+\.[0-9]+\.[0-9]+\n$)");
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_match(oracle.out, m, form), oracle.out);
  CHECK(m[1] == "bpftrace");
  for (const char* flag : {"-V", "--version"}) {
    RunResult ours = run_rawprobe({flag});
    CHECK(ours.status == 0);
    CHECK(ours.err == "");
    REQUIRE_MESSAGE(std::regex_match(ours.out, m, form), ours.out);
    CHECK(m[1] == "rawprobe");
  }
}

TEST_SUITE_END();
