// --test, --bench and --probe-filter (bpftrace 0.26.1) run for real: test: and bench: blocks
// as uprobes on rawprobe's own trigger functions, --probe-filter choosing among tracepoints
// that a command's exec and exit fire. What is checked comes from the scripts themselves: the
// names they give their blocks, the lines their blocks print, the counts their maps keep. The
// report's layout is bpftrace 0.26.1's src/output/text.cpp (tests/unit/output_test_report_test.cpp
// checks it byte for byte); here durations vary, so they are read, not compared.
#include <doctest/doctest.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

const std::string G = "\033[32m", R = "\033[31m", Z = "\033[0m";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// "name (12 us)" -> "name (T)": a test's duration varies from run to run.
std::string without_duration(std::string line) {
  size_t open = line.rfind(" (");
  if (open != std::string::npos && line.back() == ')') line = line.substr(0, open) + " (T)";
  return line;
}

constexpr const char* kTests =
    "test:adds { $a = 40 + 2; if ($a != 42) { exit(1); } printf(\"adds ran\\n\"); @ran[probe] = count(); }\n"
    "test:fails { printf(\"why: %d\\n\", 6 * 7); @ran[probe] = count(); exit(1); }\n"
    "test:asserts { assert(1 == 2, \"one is not two\"); }\n"
    "BEGIN { printf(\"begin ran\\n\"); }\n"
    "tracepoint:syscalls:sys_enter_getppid { printf(\"tracepoint ran\\n\"); }\n";

}  // namespace

TEST_CASE("--test runs each test: block alone, shows a failed test's output, and exits 1 when one failed") {
  RunResult r = run_rawprobe({"--test", "-e", kTests});
  INFO(r.out, r.err);
  CHECK(r.status == 1);
  CHECK(r.err == "");
  std::vector<std::string> got;
  for (const std::string& l : lines_of(r.out)) got.push_back(without_duration(l));
  std::vector<std::string> want = {
      G + "[==========]" + Z + " Running 3 tests.",
      G + "[ RUN      ]" + Z + " adds",
      G + "[       OK ]" + Z + " adds (T)",
      G + "[ RUN      ]" + Z + " fails",
      "why: 42",
      R + "[  FAILED  ]" + Z + " fails (T)",
      G + "[ RUN      ]" + Z + " asserts",
      "Assertion failed. Msg: one is not two",
      R + "[  FAILED  ]" + Z + " asserts (T)",
      G + "[==========]" + Z + " 3 tests ran.",
      G + "[  PASSED  ]" + Z + " 1 test.",
      R + "[  FAILED  ]" + Z + " 2 tests, listed below:",
      R + "[  FAILED  ]" + Z + " fails",
      R + "[  FAILED  ]" + Z + " asserts",
      "",
      "",
      "@ran[test:adds]: 1",
      "@ran[test:fails]: 1",
  };
  CHECK(got == want);
  // Neither BEGIN nor the tracepoint ran, and the passing test's own line stayed hidden.
  CHECK(r.out.find("begin ran") == std::string::npos);
  CHECK(r.out.find("adds ran") == std::string::npos);

  RunResult pass = run_rawprobe({"--test", "-e", "test:only { if (1 + 1 != 2) { exit(1); } }"});
  CHECK(pass.status == 0);
  CHECK(pass.out.find(G + "[  PASSED  ]" + Z + " 1 test.\n") != std::string::npos);
  CHECK(pass.out.find("FAILED") == std::string::npos);
}

TEST_CASE("without --test or --bench, test: and bench: blocks are left out and the rest runs") {
  RunResult r = run_rawprobe({"-e", std::string(kTests) + "bench:b { printf(\"bench ran\\n\"); } END { printf(\"end\\n\"); }"
                                                          " interval:ms:50 { exit(); }"});
  INFO(r.out, r.err);
  CHECK(r.status == 0);
  // BEGIN, the tracepoint, END and the interval: the test and bench blocks are not counted.
  CHECK(r.out.rfind("Attaching 4 probes...\nbegin ran\n", 0) == 0);
  CHECK(r.out.find("end\n") != std::string::npos);
  for (const char* absent : {"adds ran", "why:", "Assertion", "bench ran", "@ran"}) CHECK(r.out.find(absent) == std::string::npos);

  RunResult none = run_rawprobe({"--test", "-e", "BEGIN { exit(); }"});
  CHECK(none.status == 1);
  CHECK(none.err.find("--test: the script has no test: block") != std::string::npos);
}

TEST_CASE("--bench times each bench: block over many runs; its count agrees with the iterations") {
  RunResult r = run_rawprobe({"--bench", "-e",
                              "bench:empty { } bench:counts { @calls = count(); printf(\"dropped\\n\"); }"
                              " test:skipped { @skipped = count(); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("dropped") == std::string::npos);
  // The test block never ran: its keyless count() exists and holds nothing.
  CHECK(r.out.find("@skipped: 0\n") != std::string::npos);
  std::vector<std::string> lines = lines_of(r.out);
  REQUIRE(lines.size() >= 7);
  CHECK(lines[0] == "Benchmark" + std::string(32, ' ') + "Time(ns)" + std::string(7, ' ') + "Iterations");
  CHECK(lines[1] == std::string(41 + 15 + 10, '-'));
  uint64_t iterations[2] = {};
  const char* names[2] = {"empty", "counts"};
  for (int i = 0; i < 2; ++i) {
    const std::string& row = lines[size_t(2 + i)];
    CAPTURE(row);
    REQUIRE(row.size() > 41 + 15);
    CHECK(row.substr(0, 41) == std::string(names[i]) + std::string(41 - std::string(names[i]).size(), ' '));
    uint64_t ns = std::strtoull(row.substr(41, 15).c_str(), nullptr, 10);
    iterations[i] = std::strtoull(row.substr(56).c_str(), nullptr, 10);
    // The program's own run time (BPF_ENABLE_STATS, 5.8; this kernel is 6.18): more than
    // nothing, far less than the uprobe trap around it.
    CHECK(ns > 0);
    CHECK(ns < 100000);
    // Batches of 1, 2, 4, ... until 200 ms of triggers are spent: 2^k - 1 runs, whose
    // program time is a part of those 200 ms, not all of them.
    CHECK(iterations[i] >= 1);
    CHECK(((iterations[i] + 1) & iterations[i]) == 0);
    CHECK(ns * iterations[i] < 200000000ull);
  }
  // The map the counting block kept: one count per run the table reports.
  CHECK(lines[4] == "");
  CHECK(lines[5] == "");
  CHECK(lines[6] == "@calls: " + std::to_string(iterations[1]));
}

TEST_CASE("--probe-filter attaches only the probes whose names its regex matches") {
  std::string script =
      "BEGIN { printf(\"begin\\n\"); } "
      "tracepoint:syscalls:sys_enter_execve /pid == cpid/ { printf(\"execve\\n\"); } "
      "tracepoint:syscalls:sys_enter_exit_group /pid == cpid/ { printf(\"exit_group\\n\"); }";
  RunResult all = run_rawprobe({"-c", "/bin/true", "-e", script});
  INFO(all.out, all.err);
  REQUIRE(all.status == 0);
  CHECK(all.out == "Attaching 3 probes...\nbegin\nexecve\nexit_group\n\n\n");

  RunResult only = run_rawprobe({"--probe-filter", "exit_group$", "-c", "/bin/true", "-e", script});
  INFO(only.out, only.err);
  CHECK(only.status == 0);
  CHECK(only.out == "Attaching 2 probes...\nbegin\nexit_group\n\n\n");

  RunResult both = run_rawprobe({"--probe-filter", "sys_enter_(execve|exit_group)", "--dry-run", "-c", "/bin/true", "-e", script});
  CHECK(both.status == 0);
  CHECK(both.err == "rawprobe: dry run: 3 program(s) loaded, 3 probe(s) resolved, nothing attached\n");
  RunResult one = run_rawprobe({"--probe-filter", "execve", "--dry-run", "-c", "/bin/true", "-e", script});
  CHECK(one.status == 0);
  CHECK(one.err == "rawprobe: dry run: 2 program(s) loaded, 2 probe(s) resolved, nothing attached\n");

  RunResult none = run_rawprobe({"--probe-filter", "openat", "-c", "/bin/true", "-e", script});
  CHECK(none.status == 1);
  CHECK(none.out == "");
  CHECK(none.err.find("--probe-filter 'openat' matches none of the script's 2 probes") != std::string::npos);
  RunResult bad = run_rawprobe({"--probe-filter", "exit_(group", "-c", "/bin/true", "-e", script});
  CHECK(bad.status == 1);
  CHECK(bad.err.find("--probe-filter 'exit_(group' is not a regular expression") != std::string::npos);
}
