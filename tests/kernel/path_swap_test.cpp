// The file attached is the file inspected: rawprobe opens a uprobe's binary once and hands the
// kernel that descriptor's /proc/self/fd/N, so replacing the file between inspection and
// attach cannot swap the target. The test hook RAWPROBE_TEST_PAUSE_BEFORE_ATTACH holds
// rawprobe in that window while the test renames another build of fun (static, so bar sits at
// another offset) over the path. The original file, still run through a hard link, must be
// the one probed: the count equals the calls it reports, in every attach mode.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <regex>
#include <thread>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/fault_support.h"
#include "tests/kernel/printed_count.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

TEST_CASE("a binary replaced between inspection and attach: the inspected file is probed") {
  char tmpl[] = "/tmp/rawprobe-swap-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string dir = tmpl, target = dir + "/target", original = dir + "/original", other = dir + "/other",
                    fifo = dir + "/pause";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::string replacement = sample("static/fun");
  // The VM's samples are all static, under their own names.
  if (access(replacement.c_str(), X_OK) != 0) replacement = sample("fun");
  REQUIRE_MESSAGE(access(replacement.c_str(), X_OK) == 0, replacement << " missing: make samples");
  for (const char* mode : {"auto", "pmu", "legacy"}) {
    CAPTURE(mode);
    unlink(target.c_str());
    unlink(original.c_str());
    REQUIRE(run({"cp", sample("fun"), target}).status == 0);
    REQUIRE(link(target.c_str(), original.c_str()) == 0);  // the inspected inode, by another name
    REQUIRE(run({"cp", replacement, other}).status == 0);
    setenv("RAWPROBE_TEST_PAUSE_BEFORE_ATTACH", fifo.c_str(), 1);
    Process tracer({rawprobe_path(), "--attach-mode=" + std::string(mode), "--trace-syscalls", "-c",
                    original + " 5", "-e", "uprobe:" + target + ":bar { @calls[probe] = count(); }"});
    unsetenv("RAWPROBE_TEST_PAUSE_BEFORE_ATTACH");
    int gate = wait_for_pause(fifo, 30);
    bool paused = gate >= 0;
    // In the window: the name now reaches another file, whose bar is elsewhere.
    bool renamed = rename(other.c_str(), target.c_str()) == 0;
    if (gate >= 0) close(gate);
    RunResult r = tracer.finish(60);
    INFO("stdout:\n", r.out, "\nstderr:\n", r.err);
    REQUIRE(paused);
    REQUIRE(renamed);
    CHECK(r.status == 0);
    long expected = sys::ktest::reported_calls(r.err, "bar");
    REQUIRE(expected > 0);
    // Named by the path the user gave, counted on the file that path held at inspection.
    CHECK(printed_count(r.out, "@calls\\[uprobe:" + target + ":bar\\]") == expected);
    // The kernel was handed the held descriptor, never the name, in the mode's own call (auto:
    // a uprobe_multi link from 6.6, the PMU before, as on the 6.1 guest).
    const char* handed = std::string(mode) == "auto"  ? "(uprobe_multi\\.path|config1)=\"/proc/self/fd/[0-9]+\""
                         : std::string(mode) == "pmu" ? "config1=\"/proc/self/fd/[0-9]+\""
                                                      : "\"p:rawprobe_[0-9]+_0 /proc/self/fd/[0-9]+:0x";
    CHECK(std::regex_search(r.err, std::regex(handed)));
    for (const std::string& by_name : {"uprobe_multi.path=\"" + target, "config1=\"" + target, " " + target + ":0x"})
      CHECK(r.err.find(by_name) == std::string::npos);
  }
  run({"rm", "-rf", dir});
}
