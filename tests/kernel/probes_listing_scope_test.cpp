// What a listing covers: a wildcard provider over one binary (`*:BIN:*`), every probe of one
// process (`-l -p PID`), and a pattern that matches nothing (an error, so that
// `rawprobe -l PATTERN && ...` can tell none from some). bpftrace 0.17 is the oracle for the
// lines; for what it does not do (it lists nothing for -p of a stripped program and exits 0
// on no match), the oracle is rawprobe's own per-object listing and the pattern's wider form.
#include <doctest/doctest.h>

#include <csignal>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include "tests/kernel/cli_run.h"
#include "tests/unit/probes_capture.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// The files a process maps executable, from its /proc/PID/maps.
std::set<std::string> executable_objects(pid_t pid) {
  std::set<std::string> files;
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  for (std::string line; std::getline(maps, line);) {
    std::istringstream fields(line);
    std::string range, perms, offset, dev, inode, path;
    fields >> range >> perms >> offset >> dev >> inode >> path;
    if (perms.size() > 2 && perms[2] == 'x' && !path.empty() && path[0] == '/') files.insert(path);
  }
  return files;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("-l '*:BIN:*' lists every provider over BIN, as bpftrace does") {
  std::string hello = sample("hello_usdt");
  for (std::string pattern : {"*:" + hello + ":*", "u*:" + hello + ":*", "*:" + hello + ":m*"}) {
    CAPTURE(pattern);
    std::string oracle = probes::test::command_output("bpftrace -l '" + pattern + "' 2>/dev/null");
    REQUIRE_FALSE(oracle.empty());
    RunResult r = run_rawprobe({"-l", pattern});
    CHECK(r.status == 0);
    CHECK(lines_of(r.out) == lines_of(oracle));
  }
}

TEST_CASE("a listing that matches nothing fails, naming the pattern and a wider one that lists") {
  std::string fun = sample("fun");
  for (std::string pattern : {std::string("tracepoint:nosuch:*"), "uprobe:" + fun + ":nosuchfn",
                              std::string("*nosuchthing*")}) {
    CAPTURE(pattern);
    // bpftrace agrees that nothing matches: it prints no line but the echoes of the pattern
    // itself that it gives for software and hardware events ("software:*nosuchthing*:").
    for (const std::string& line :
         lines_of(probes::test::command_output("bpftrace -l '" + pattern + "' 2>/dev/null")))
      CHECK(line.find(pattern) != std::string::npos);
    RunResult r = run_rawprobe({"-l", pattern});
    CHECK(r.status == 1);
    CHECK(r.out.empty());
    REQUIRE(r.err.rfind("rawprobe: no probes match '" + pattern + "'\nhint: ", 0) == 0);
    // The wider pattern the hint offers does list something.
    size_t quote = r.err.find("-l '");
    if (quote == std::string::npos) continue;  // "-l alone": a bare -l always lists
    std::string wider = r.err.substr(quote + 4, r.err.rfind('\'') - quote - 4);
    CAPTURE(wider);
    RunResult widened = run_rawprobe({"-l", wider});
    CHECK(widened.status == 0);
    CHECK_FALSE(widened.out.empty());
  }
}

TEST_CASE("-l -p PID lists the uprobes of every object the process maps, and nothing else") {
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    execl("/bin/sleep", "sleep", "30", nullptr);
    _exit(127);
  }
  usleep(200 * 1000);  // until the exec has mapped libc
  std::set<std::string> objects = executable_objects(child);
  REQUIRE_FALSE(objects.empty());
  RunResult listed = run_rawprobe({"-l", "-p", std::to_string(child)});
  CHECK(listed.status == 0);
  // The same lines, object by object, from listings that name each file.
  std::multiset<std::string> expected;
  for (const std::string& object : objects) {
    RunResult one = run_rawprobe({"-l", "uprobe:" + object + ":*"});
    for (const std::string& line : lines_of(one.out)) expected.insert(line);
  }
  std::vector<std::string> got_lines = lines_of(listed.out);
  std::multiset<std::string> got(got_lines.begin(), got_lines.end());
  CHECK(got.size() == expected.size());
  CHECK(got == expected);
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
}

TEST_SUITE_END();
