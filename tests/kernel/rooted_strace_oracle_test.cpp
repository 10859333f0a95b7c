// strace as the oracle for --trace-syscalls' openat2 line: rawprobe run under
// `strace -e trace=openat2`, each openat2 line rawprobe prints must equal the line strace
// prints for the same call, once rawprobe's strace -y style "<path>" after the directory fd is
// dropped (strace without -y prints the bare number). A success and a failure are compared.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdlib>
#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

TEST_SUITE_BEGIN("host-only");

namespace {

std::vector<std::string> openat2_lines(const std::string& text) { return lines_starting(text, "openat2("); }

// The trace lines rawprobe printed and strace's lines for the same run.
void compare_with_strace(const std::vector<std::string>& args) {
  char tmpl[] = "/tmp/rawprobe-strace-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string log = std::string(tmpl) + "/strace.log";
  // LeakSanitizer stops the process with ptrace at exit, which a process strace traces cannot
  // be: a sanitized rawprobe would end in LSan's fatal error. Every other case checks leaks.
  const char* asan = std::getenv("ASAN_OPTIONS");
  std::string no_leak_check = "ASAN_OPTIONS=" + std::string(asan && *asan ? std::string(asan) + ":" : "") + "detect_leaks=0";
  std::vector<std::string> argv = {"env", no_leak_check, "strace", "-e", "trace=openat2", "-o", log, rawprobe_path(),
                                   "--trace-syscalls"};
  argv.insert(argv.end(), args.begin(), args.end());
  RunResult r = run(argv, 60);
  INFO(r.out, r.err);
  std::vector<std::string> ours = openat2_lines(r.err), theirs = openat2_lines(read_file(log));
  REQUIRE(!ours.empty());
  REQUIRE(ours.size() == theirs.size());
  for (size_t i = 0; i < ours.size(); ++i)
    CHECK(std::regex_replace(ours[i], std::regex("^openat2\\(([0-9]+)<[^>]*>"), "openat2($1") == theirs[i]);
  run({"rm", "-rf", tmpl});
}

}  // namespace

TEST_CASE("--trace-syscalls spells openat2 as strace does: a file opened inside -c's root") {
  compare_with_strace({"-c", sample("fun"), "-e", "uprobe:" + sample("fun") + ":bar { @ = count(); }"});
}

TEST_CASE("--trace-syscalls spells openat2 as strace does: ENOENT inside -p's root") {
  compare_with_strace({"-p", std::to_string(getpid()), "-e", "uprobe:/nonexistent/rawprobe-strace-oracle:f { }"});
}

TEST_SUITE_END();
