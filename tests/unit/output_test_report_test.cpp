// The --test report and the --bench table (engine/output/test_report.h). The expected text is
// bpftrace 0.26.1's, from its src/output/text.cpp (TextOutput::test_result and
// TextOutput::benchmark_result): googletest's banners with ANSI colors (green 32, red 31,
// reset 0), "Running N tests." with the plural always, a failed test's non-empty output lines
// between RUN and FAILED, and a bench table whose name column is the longest name or 40 wide.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/output/test_report.h"

using namespace rawprobe;

namespace {

const std::string G = "\033[32m", R = "\033[31m", Z = "\033[0m";

}  // namespace

TEST_CASE("a test report prints each test as it ends, then the summary, as bpftrace 0.26.1") {
  std::vector<std::string> names{"parses", "fails"};
  std::vector<bool> passed{true};
  CHECK(test_report_entry(names, 0, 2500, passed, "hidden\n") ==
        G + "[==========]" + Z + " Running 2 tests.\n" + G + "[ RUN      ]" + Z + " parses\n" + G + "[       OK ]" + Z +
            " parses (2 us)\n");
  passed.push_back(false);
  CHECK(test_report_entry(names, 1, 40, passed, "line one\n\nline two") ==
        G + "[ RUN      ]" + Z + " fails\n" + "line one\nline two\n" + R + "[  FAILED  ]" + Z + " fails (40 ns)\n" + G +
            "[==========]" + Z + " 2 tests ran.\n" + G + "[  PASSED  ]" + Z + " 1 test.\n" + R + "[  FAILED  ]" + Z +
            " 1 test, listed below:\n" + R + "[  FAILED  ]" + Z + " fails\n");

  // One test that passes: "Running 1 tests." (0.26.1's unconditional plural), no FAILED lines.
  std::vector<std::string> one{"only"};
  CHECK(test_report_entry(one, 0, 3000000, {true}, "") ==
        G + "[==========]" + Z + " Running 1 tests.\n" + G + "[ RUN      ]" + Z + " only\n" + G + "[       OK ]" + Z +
            " only (3 ms)\n" + G + "[==========]" + Z + " 1 test ran.\n" + G + "[  PASSED  ]" + Z + " 1 test.\n");
}

TEST_CASE("a duration prints in the largest unit it holds one of") {
  CHECK(duration_text(0) == "0 ns");
  CHECK(duration_text(999) == "999 ns");
  CHECK(duration_text(1000) == "1 us");
  CHECK(duration_text(999999) == "999 us");
  CHECK(duration_text(1999999) == "1 ms");
  CHECK(duration_text(2000000) == "2 ms");
  CHECK(duration_text(3500000000ull) == "3 s");
}

TEST_CASE("the bench table: name column max(40, longest name) + 1, time 15 wide, then iterations") {
  std::vector<std::string> names{"lookup", "update"};
  std::string rule(41 + 15 + 10, '-');
  CHECK(bench_report_row(names, 0, 123, 4096) ==
        "Benchmark" + std::string(32, ' ') + "Time(ns)" + std::string(7, ' ') + "Iterations\n" + rule + "\n" +
            "lookup" + std::string(35, ' ') + "123" + std::string(12, ' ') + "4096\n");
  CHECK(bench_report_row(names, 1, 7, 1) == "update" + std::string(35, ' ') + "7" + std::string(14, ' ') + "1\n");
  std::vector<std::string> long_names{std::string(45, 'x')};
  CHECK(bench_report_row(long_names, 0, 5, 2) == "Benchmark" + std::string(37, ' ') + "Time(ns)" +
                                                     std::string(7, ' ') + "Iterations\n" + std::string(46 + 25, '-') +
                                                     "\n" + std::string(45, 'x') + " 5" + std::string(14, ' ') + "2\n");
}
