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

// bpftrace 0.22 on: a self:signal:SIGUSR1 block runs on each SIGUSR1 instead, and the maps
// print only at the end (its docs/migration_guide.md, "default SIGUSR1 handler removed"). The
// oracle is the script's own count of the signals the test sent.
TEST_CASE("self:signal:SIGUSR1 runs its block once per SIGUSR1, in rawprobe, and the maps print only at the end") {
  Process p({rawprobe_path(), "-e",
             "BEGIN { @sent = 0; printf(\"begun\\n\"); } self:signal:SIGUSR1 { @sent++; printf(\"signal %d from pid %d\\n\", "
             "@sent, pid); if (@sent == 3) { exit(); } }"});
  REQUIRE(p.wait_for_output("begun\n", 30));
  for (int sent = 1; sent <= 3; ++sent) {
    p.signal(SIGUSR1);
    REQUIRE(p.wait_for_output("signal " + std::to_string(sent) + " from pid ", 10));
  }
  RunResult r = p.finish(30);
  INFO(r.out, r.err);
  CHECK(r.status == 0);
  std::vector<std::string> lines = lines_starting(r.out, "signal ");
  REQUIRE(lines.size() == 3);
  for (int i = 0; i < 3; ++i) {
    // pid is rawprobe's own: the block runs on rawprobe's call of its trigger.
    CHECK(lines[i] == "signal " + std::to_string(i + 1) + " from pid " + std::to_string(p.pid()));
  }
  size_t maps = r.out.find("@sent: 3\n");
  CHECK(maps != std::string::npos);
  CHECK(r.out.find("@sent: ", maps + 1) == std::string::npos);  // printed once, at the end
  CHECK(r.out.find("@sent: 1\n") == std::string::npos);
}

TEST_CASE("self probes take signal:SIGUSR1 only, refused in bpftrace 0.26.1's words before anything loads") {
  struct Case {
    std::string spec, says;
  } cases[] = {
      {"self:signal:SIGHUP", "SIGHUP is not a supported signal"},
      {"self:keypress:space", "keypress is not a supported trigger"},
      {"self:signal", "self probe type requires 2 arguments, found 1"},
  };
  for (const Case& c : cases) {
    RunResult r = run_rawprobe({"--trace-syscalls", "-e", c.spec + " { printf(\"x\\n\"); }"});
    INFO(c.spec, r.err);
    CHECK(r.status == 1);
    CHECK(r.err.find("-e:1:1: error: " + c.says) != std::string::npos);
    CHECK(r.err.find("BPF_PROG_LOAD") == std::string::npos);
  }
  RunResult listed = run_rawprobe({"-l", "self:*"});
  CHECK(listed.out == "self:signal:SIGUSR1\n");
}
