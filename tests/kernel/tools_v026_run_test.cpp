// bpftrace v0.26.1's own tools (shared/corpus/bpftrace-v0.26.1/tools, read in place, never
// copied) run for real and unchanged, against a workload the test starts. bpftrace 0.26 is
// not installed, so what each row must say comes from the workload itself: the names it was
// given, the directory it ran in, and the descriptors and errnos it printed.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// Where cli_script_tools_test.cpp looks: RAWPROBE_CORPUS, beside the checkout, /work/shared.
std::string v026_tool(const std::string& name) {
  const char* from_env = std::getenv("RAWPROBE_CORPUS");
  for (std::string corpus : {std::string(from_env ? from_env : ""), source_root() + "/../shared/corpus",
                             std::string("/work/shared/corpus")}) {
    std::string path = corpus + "/bpftrace-v0.26.1/tools/" + name;
    if (!corpus.empty() && access(path.c_str(), R_OK) == 0) return path;
  }
  return "";
}

// Each line's whitespace-separated fields, for the lines whose first field is `pid`.
std::vector<std::vector<std::string>> rows_of(const std::string& out, const std::string& pid) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    if (!f.empty() && f[0] == pid) rows.push_back(f);
  }
  return rows;
}

}  // namespace

// The workload is python3 and the tools live beside the checkout: neither is in the guests.
TEST_SUITE_BEGIN("host-only");

TEST_CASE("bpftrace v0.26.1's opensnoop.bt prints each open's fd or errno, and a relative path from the cwd") {
  // The tool prints a path as given when it starts with '/' (`$path[0] != "/"[0]`, a string
  // indexed), else the opener's cwd, walked up its dentries, then the path.
  std::string tool = v026_tool("opensnoop.bt");
  REQUIRE_MESSAGE(!tool.empty(), "shared/corpus/bpftrace-v0.26.1/tools is beside the source tree, in /work/shared, "
                                 "or named by RAWPROBE_CORPUS");
  std::string name = "present-file";
  // The tool prints a line in several printf calls, as bpftrace runs it too, so another
  // process's open on another CPU can land inside one of the workload's lines. Such a run
  // says nothing either way and is run again (at most three times).
  for (int attempt = 1; attempt <= 3; ++attempt) {
    char dir_template[] = "/tmp/rawprobe_opensnoop_XXXXXX";
    REQUIRE(::mkdtemp(dir_template));
    std::string dir = dir_template;
    std::string missing = dir + "/missing-file";
    if (FILE* f = std::fopen((dir + "/" + name).c_str(), "w")) std::fclose(f);

    Process tracer({rawprobe_path(), tool});
    bool attached = tracer.wait_for_output("Tracing open", 60);
    CHECK_MESSAGE(attached, tracer.so_far().err);
    std::string pid;
    RunResult work;
    if (attached) {
      // The tool records the cwd's names, one map entry per level, on every open, but deletes
      // them only when it prints a relative path. Names an earlier, deeper cwd left beyond the
      // new cwd's depth would be printed too, as bpftrace would print them. So the workload
      // starts in "/", shallower than the directory it opens from, wherever the tests run.
      int here = ::open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      REQUIRE(here >= 0);
      REQUIRE(::chdir("/") == 0);
      Process python({"/usr/bin/python3", "-c",
                      "import os, sys\n"
                      "os.chdir(sys.argv[1])\n"
                      "print(os.open(sys.argv[2], os.O_RDONLY))\n"
                      "try: os.open(sys.argv[3], os.O_RDONLY)\n"
                      "except OSError as e: print(e.errno)\n",
                      dir, name, missing});
      bool back = ::fchdir(here) == 0;
      ::close(here);
      REQUIRE(back);
      pid = std::to_string(python.pid());
      work = python.finish(60);
      usleep(500 * 1000);
    }
    tracer.signal(SIGINT);
    RunResult r = tracer.finish(30);
    ::unlink((dir + "/" + name).c_str());
    ::rmdir(dir.c_str());
    REQUIRE(attached);
    INFO("rawprobe:\n", r.out, r.err, "\nworkload:\n", work.out, work.err);
    CHECK(r.status == 0);
    std::istringstream said(work.out);
    std::string fd, err;
    said >> fd >> err;
    REQUIRE(!err.empty());
    auto rows = rows_of(r.out, pid);
    bool split = std::any_of(rows.begin(), rows.end(), [](const auto& f) { return f.size() != 5; });
    if (split && attempt < 3) {
      MESSAGE("attempt " << attempt << ": another process's event landed inside a line of the workload's; again");
      continue;
    }
    // PID COMM FD ERR PATH
    std::vector<std::string> opened{pid, "python3", fd, "0", dir + "/" + name};
    std::vector<std::string> refused{pid, "python3", "-1", err, missing};
    CHECK(std::count(rows.begin(), rows.end(), opened) == 1);
    CHECK(std::count(rows.begin(), rows.end(), refused) == 1);
    break;
  }
}

TEST_SUITE_END();
