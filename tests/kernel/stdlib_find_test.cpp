// find(@m, k, $v), bpftrace 0.26.1 (docs/stdlib.md: "Return true if the key exists in this map
// and sets the passed scratch variable (result) to the value of that map key. Otherwise return
// false and don't mutate result."), run for real. The keys and values come from the test: the
// script stores them, and each answer must agree with the set the test chose.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <cstdlib>
#include <map>
#include <string>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

TEST_CASE("find answers whether the key is there, copies its value when it is, and leaves $v when not") {
  const std::map<int, std::string> stored = {{2, "two"}, {5, "five"}, {7, "seven"}};
  std::string script = "BEGIN { $v = \"unset\";";
  for (const auto& [k, v] : stored) script += " @m[" + std::to_string(k) + "] = \"" + v + "\";";
  // After a miss $v still holds what the last hit (or the start) left there.
  for (int k = 1; k <= 8; ++k) script += " $f = find(@m, " + std::to_string(k) + ", $v); printf(\"%d|%s|%s\\n\", " + std::to_string(k) + ", $f, $v);";
  script += " clear(@m); exit(); }";
  RunResult r = run_rawprobe({"-e", script});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> expected;
  std::string last = "unset";
  for (int k = 1; k <= 8; ++k) {
    auto it = stored.find(k);
    if (it != stored.end()) last = it->second;
    expected.push_back(std::to_string(k) + "|" + (it != stored.end() ? "true" : "false") + "|" + last);
  }
  std::vector<std::string> got;
  for (int k = 1; k <= 8; ++k)
    for (const std::string& line : lines_starting(r.out, std::to_string(k) + "|")) got.push_back(line);
  CHECK(got == expected);
}

TEST_CASE("find reads a key the kernel wrote from a tracepoint: the child's pid and exit status") {
  // The value stored is the exit_group status the kernel records; the test's own run of
  // /bin/false says what it is.
  int status = std::system("/bin/false");
  REQUIRE(WIFEXITED(status));
  RunResult r = run_rawprobe(
      {"-c", "/bin/false", "-e",
       "tracepoint:syscalls:sys_enter_exit_group /pid == cpid/ { @status[pid] = args.error_code; }"
       " END { $s = -1; if (find(@status, cpid, $s)) { printf(\"found %d\\n\", $s); } clear(@status); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(lines_starting(r.out, "found") == std::vector<std::string>{"found " + std::to_string(WEXITSTATUS(status))});
}
