// -l -p PID for a process in another mount namespace, against bpftrace 0.17: the process runs
// hello_usdt from a tmpfs mounted only in its own namespace, so the path its mappings name
// reaches nothing on the host. Both tools must list its USDT probe and uprobes (bpftrace
// through /proc/PID/root, rawprobe under the path the process sees), and a usdt:*:NAME run
// must fire.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>

#include <algorithm>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// "usdt:/proc/42/root/tmp/x/hello_usdt:p:n" and "usdt:/tmp/x/hello_usdt:p:n" -> "usdt:p:n"
// (and the same for uprobe lines): what is listed, less where each tool says it lives.
std::vector<std::string> probes_of(const std::string& listing, const std::string& file) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < listing.size()) {
    size_t end = listing.find('\n', start);
    if (end == std::string::npos) end = listing.size();
    std::string line = listing.substr(start, end - start);
    start = end + 1;
    size_t at = line.find("/" + file + ":");
    if (at == std::string::npos) continue;
    out.push_back(line.substr(0, line.find(':') + 1) + line.substr(at + file.size() + 2));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("-l -p PID lists the USDT probes and uprobes of a process in another mount namespace") {
  char dir_template[] = "/tmp/rawprobe-ctrl-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string dir = dir_template, inside = dir + "/hello_usdt";
  const std::string shell = "mount -t tmpfs rawprobe-ctrl '" + dir + "' && cp '" + sample("hello_usdt") + "' '" +
                            inside + "' && exec '" + inside + "' 30";
  Process target({"unshare", "--mount", "--propagation", "private", "sh", "-c", shell});
  REQUIRE_MESSAGE(target.wait_for_output("hello_usdt pid", 10), target.so_far().err);
  struct stat host_view;
  CHECK_MESSAGE(stat(inside.c_str(), &host_view) != 0, inside << " must not exist outside the namespace");
  std::string pid = std::to_string(target.pid());

  for (const char* pattern : {"usdt:*", "uprobe:*"}) {
    RunResult bt = run({"bpftrace", "-l", "-p", pid, pattern});
    RunResult rp = run_rawprobe({"-l", "-p", pid, pattern});
    INFO(pattern, "\nbpftrace:\n", bt.out, bt.err, "\nrawprobe:\n", rp.out, rp.err);
    CHECK(rp.status == 0);
    std::vector<std::string> theirs = probes_of(bt.out, "hello_usdt"), ours = probes_of(rp.out, "hello_usdt");
    REQUIRE(!theirs.empty());
    CHECK(ours == theirs);
    std::string provider = std::string(pattern).substr(0, std::string(pattern).find(':') + 1);
    CHECK(rp.out.find(provider + inside + ":") != std::string::npos);
  }
  RunResult run_usdt = run_rawprobe({"-p", pid, "-e", "usdt:*:USDT-test-probe { @hits = count(); exit(); }"}, 20);
  INFO(run_usdt.out, run_usdt.err);
  CHECK(run_usdt.status == 0);
  CHECK(lines_starting(run_usdt.out, "@hits") == std::vector<std::string>{"@hits: 1"});
  kill(target.pid(), SIGKILL);
  rmdir(dir.c_str());
}

TEST_SUITE_END();
