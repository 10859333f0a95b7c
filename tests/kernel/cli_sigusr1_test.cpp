// SIGUSR1 prints every map and the run goes on, as bpftrace does: the same script under
// rawprobe and under bpftrace 0.17 (the oracle), each sent SIGUSR1 once its BEGIN has printed,
// then left to end on its own interval, print the same stdout.
#include <doctest/doctest.h>

#include <csignal>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

constexpr const char* kScript =
    "BEGIN { @scalar = 5; @keyed[1] = 2; @keyed[3] = 4; @c = count(); printf(\"begun\\n\"); } "
    "interval:ms:1500 { exit(); }";

// Runs `argv`, sends SIGUSR1 once "begun" is out and waits for the maps printed in answer
// (so the signal lands before the interval ends the run), then collects the run.
RunResult with_sigusr1(const std::vector<std::string>& argv) {
  Process p(argv);
  if (!p.wait_for_output("begun\n", 30)) return p.finish(5);
  p.signal(SIGUSR1);
  p.wait_for_output("@scalar: 5\n", 5);
  return p.finish(30);
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("SIGUSR1 prints every map and the run continues, as bpftrace prints them") {
  RunResult ours = with_sigusr1({rawprobe_path(), "-e", kScript});
  RunResult oracle = with_sigusr1({"bpftrace", "-e", kScript});
  REQUIRE_MESSAGE(oracle.status == 0, oracle.err);
  CHECK(ours.status == 0);
  CHECK(ours.err == "");
  CHECK(ours.out == oracle.out);
  // Printed twice: once for the signal, once at the end.
  size_t first = ours.out.find("@scalar: 5\n");
  REQUIRE(first != std::string::npos);
  CHECK(ours.out.find("@scalar: 5\n", first + 1) != std::string::npos);
}

TEST_SUITE_END();
