// Blocks on the same event run in the order the script declares them, as in bpftrace: the
// kernel runs an event's programs newest first, so rawprobe attaches the blocks last to first.
#include <doctest/doctest.h>

#include <unistd.h>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// The lines of `text` that are one of `marks`, in order.
std::string marks_in(const std::string& text) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (line.size() == 2 && (line[0] == 'u' || line[0] == 'r' || line[0] == 'b')) out += line + " ";
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("three uprobe and two uretprobe blocks on one function run in declaration order, as bpftrace's" *
          doctest::test_suite("host-only")) {
  if (geteuid() != 0) {
    MESSAGE("needs root to attach uprobes");
    return;
  }
  const std::string fun = sample("fun");
  std::string script;
  for (const char* mark : {"u1", "u2", "u3"}) script += "uprobe:" + fun + ":bar { printf(\"" + mark + "\\n\"); } ";
  for (const char* mark : {"r1", "r2"}) script += "uretprobe:" + fun + ":bar { printf(\"" + mark + "\\n\"); } ";
  RunResult oracle = run({"bpftrace", "-c", fun + " 1", "-e", script});
  RunResult ours = run_rawprobe({"-c", fun + " 1", "-e", script});
  REQUIRE_MESSAGE(oracle.status == 0, oracle.err);
  REQUIRE_MESSAGE(ours.status == 0, ours.err);
  // `fun 1` calls bar 3 times (its own report on stderr). bpftrace's order for one call is
  // that of its last call: its first call can miss a probe still attaching as the command
  // starts, which rawprobe, releasing the command once all are attached, never does.
  REQUIRE(ours.err.find("bar=3") != std::string::npos);
  std::string oracle_marks = marks_in(oracle.out);
  const std::string one_call = "u1 u2 u3 r1 r2 ";
  REQUIRE(oracle_marks.size() >= one_call.size());
  CHECK(oracle_marks.substr(oracle_marks.size() - one_call.size()) == one_call);
  // The same holds for rawprobe's first call now and then (a kernel race of consumers added
  // while the command starts): its last two calls are whole, each in declaration order.
  std::string our_marks = marks_in(ours.out);
  REQUIRE(our_marks.size() >= 2 * one_call.size());
  CHECK(our_marks.substr(our_marks.size() - 2 * one_call.size()) == one_call + one_call);
}

TEST_CASE("two BEGIN blocks run in declaration order; an exit() in the second still lets the first print") {
  if (geteuid() != 0) {
    MESSAGE("needs root to run BEGIN");
    return;
  }
  // bpftrace 0.17 refuses a second BEGIN; the order is the one it gives every other event.
  RunResult ours = run_rawprobe({"-e", "BEGIN { printf(\"b1\\n\"); } BEGIN { printf(\"b2\\n\"); exit(); }"});
  REQUIRE_MESSAGE(ours.status == 0, ours.err);
  CHECK(marks_in(ours.out) == "b1 b2 ");
}

// BEGIN runs before any other probe is attached, as in bpftrace: a probe that fires all the
// time (here, a writer that never stops) cannot print ahead of BEGIN's heading, nor fill the
// event buffer before BEGIN has written to it.
TEST_CASE("BEGIN prints before the first event of a probe that fires during attach" *
          doctest::test_suite("host-only")) {
  if (geteuid() != 0) {
    MESSAGE("needs root to attach tracepoints");
    return;
  }
  Process writer({"sh", "-c", "exec yes > /dev/null"});
  const std::string script =
      "BEGIN { printf(\"begin\\n\"); } tracepoint:syscalls:sys_enter_write /pid == " +
      std::to_string(writer.pid()) + "/ { printf(\"event\\n\"); exit(); }";
  for (int round = 0; round < 5; ++round) {
    CAPTURE(round);
    RunResult r = run_rawprobe({"-e", script});
    CHECK(r.status == 0);
    CHECK_MESSAGE(r.out.rfind("Attaching 2 probes...\nbegin\nevent\n", 0) == 0, r.out);
  }
  writer.signal(SIGKILL);
}
