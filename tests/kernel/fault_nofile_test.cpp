// A file descriptor limit too low for a wildcard's probes: rawprobe stops with the errno and
// the way out, and leaves nothing behind, in particular no legacy uprobe_events entry (the
// kernel frees fd-held programs, maps and links at exit, but tracefs events stay until
// removed, and removing them needs one more descriptor at the moment none is left).
#include <doctest/doctest.h>

#include <regex>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/fault_support.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

TEST_SUITE_BEGIN("host-only");

TEST_CASE("RLIMIT_NOFILE too low for a wildcard: EMFILE named, a hint, nothing left attached") {
  // Every function of the sample: more probes than 16 descriptors hold in any mode. Each lower
  // limit runs out at an earlier step (the signalfd, a map, a program, a sysfs read, the PMU,
  // a tracefs write, a link), and every one of them must say so the same way.
  std::string fun = sample("fun");
  for (int limit = 4; limit <= 16; ++limit) {
    for (const char* mode : {"auto", "pmu", "legacy"}) {
      CAPTURE(limit);
      CAPTURE(mode);
      std::string nofile = "--nofile=" + std::to_string(limit) + ":" + std::to_string(limit);
      // prlimit sets the limit on itself and execs rawprobe, which keeps its pid.
      Process tracer({"prlimit", nofile, "--", rawprobe_path(), "--attach-mode=" + std::string(mode), "-e",
                      "uprobe:" + fun + ":* { @[probe] = count(); } uretprobe:" + fun +
                          ":* { @r[probe] = count(); } interval:ms:100 { exit(); }"});
      pid_t pid = tracer.pid();
      RunResult r = tracer.finish(60);
      CHECK(r.status == 1);
      // At the full 16 it got as far as attaching (the limit bit there, not in setting up).
      if (limit == 16)
        CHECK_MESSAGE(std::regex_search(r.out, std::regex("^Attaching [0-9]+ probes\\.\\.\\.\n")), r.out);
      CHECK_MESSAGE(r.err.find("EMFILE (Too many open files)") != std::string::npos, r.err);
      CHECK_MESSAGE(r.err.find("hint: too many open files: raise the limit with ulimit -n") != std::string::npos,
                    r.err);
      // No event of this run is left for a later run to clean up.
      std::string own_event = "rawprobe_" + std::to_string(pid) + "_";
      // Read once: a failed check stringifies its message inside doctest's lock, where
      // uprobe_events()'s own REQUIRE would wait on that lock forever.
      std::string events_after = uprobe_events();
      CHECK_MESSAGE(events_after.find(own_event) == std::string::npos, events_after);
    }
  }
}

TEST_SUITE_END();
