// SIGTERM or SIGINT while a large legacy wildcard is being attached (hundreds of libc
// functions, each its own uprobe_events entry and perf event): rawprobe stops attaching,
// ends the run as on any stop signal (END runs, the maps print, status 0), and removes every
// entry it defined, the ones attached before the signal included. In the default mode a
// wildcard over many libraries makes a uprobe_multi link each; the signal stops those too.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <regex>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/fault_support.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The host's libc, as the dynamic loader finds it for this test.
std::string libc_path() {
  RunResult r = run({"sh", "-c", "ldd /bin/sh | sed -n 's|.*=> \\(/[^ ]*libc\\.so\\.6\\) .*|\\1|p'"});
  std::string path = r.out.substr(0, r.out.find('\n'));
  REQUIRE_MESSAGE(!path.empty(), r.out << r.err);
  return path;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("SIGTERM or SIGINT during a legacy wildcard's attach: stops, prints the maps, leaves no event") {
  std::string libc = libc_path();
  for (int sig : {SIGTERM, SIGINT}) {
    CAPTURE(sig);
    Process tracer({rawprobe_path(), "--attach-mode=legacy", "--trace-syscalls", "-e",
                    "BEGIN { @started = 1; } uprobe:" + libc + ":s* { @calls[probe] = count(); } "
                    "END { printf(\"end ran\\n\"); }"});
    REQUIRE_MESSAGE(tracer.wait_for_output("probes...\n", 30), tracer.so_far().err);
    std::smatch m;
    REQUIRE(std::regex_search(tracer.so_far().out, m, std::regex("Attaching ([0-9]+) probes\\.\\.\\.\n")));
    size_t total = std::stoul(m[1]);
    REQUIRE(total > 200);  // a large wildcard: every libc function starting with s
    // Signal once a few of the wildcard's entries exist (BEGIN's is the first).
    std::string own = "rawprobe_" + std::to_string(tracer.pid()) + "_";
    size_t seen = 0;
    for (int i = 0; i < 30000 && seen < 6; ++i) {
      seen = count_of(uprobe_events(), own);
      if (seen < 6) usleep(1000);
    }
    REQUIRE_MESSAGE(seen >= 6, "no legacy entries appeared");
    tracer.signal(sig);
    RunResult r = tracer.finish(120);
    CHECK_MESSAGE(r.status == 0, r.err);
    CHECK(r.out.find("end ran\n") != std::string::npos);
    CHECK(r.out.find("\n@started: 1\n") != std::string::npos);
    // What --trace-syscalls shows: each entry defined was removed, and far fewer were defined
    // than the wildcard has (the attach stopped at the signal, not after all of it).
    size_t defined = count_of(r.err, "\"p:" + own), removed = count_of(r.err, "\"-:uprobes/" + own);
    CHECK(defined >= seen);
    CHECK(removed == defined);
    CHECK_MESSAGE(defined < total, defined << " of " << total);
    MESSAGE(sig << ": " << defined << " of " << total << " entries defined, all removed");
    // Read once: a failed check stringifies its message inside doctest's lock, where
    // uprobe_events()'s own REQUIRE would wait on that lock forever.
    std::string events_after = uprobe_events();
    CHECK_MESSAGE(events_after.find(own) == std::string::npos, events_after);
  }
}

TEST_CASE("SIGTERM during a uprobe_multi wildcard's attach: no further link, END runs, exit 0") {
  // malloc in every library of libc's directory that defines one: one uprobe_multi link each.
  std::string libc = libc_path();
  std::string libs = libc.substr(0, libc.rfind('/')) + "/lib*.so.*";
  std::string script = "END { printf(\"end ran\\n\"); } uprobe:" + libs + ":malloc { @calls[probe] = count(); }";
  RunResult dry = run_rawprobe({"--dry-run", "-v", "-e", script});
  std::smatch m;
  REQUIRE(std::regex_search(dry.err, m, std::regex("([0-9]+) probe\\(s\\) resolved")));
  std::string fifo = "/tmp/rawprobe_multi_stop_" + std::to_string(getpid());
  unlink(fifo.c_str());
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // Held before the wildcard's links (blocks attach last to first), signalled there.
  setenv("RAWPROBE_TEST_PAUSE_BEFORE_ATTACH", fifo.c_str(), 1);
  Process tracer({rawprobe_path(), "--trace-syscalls", "-e", script});
  unsetenv("RAWPROBE_TEST_PAUSE_BEFORE_ATTACH");
  int gate = wait_for_pause(fifo, 60);
  REQUIRE(gate >= 0);
  tracer.signal(SIGTERM);
  close(gate);
  RunResult r = tracer.finish(60);
  unlink(fifo.c_str());
  CHECK_MESSAGE(r.status == 0, r.err);
  CHECK(r.out.find("end ran\n") != std::string::npos);
  // Each library's link is made through its held descriptor; END's through rawprobe's path.
  size_t wildcard_links = count_of(r.err, "BPF_TRACE_UPROBE_MULTI, flags=0x0, uprobe_multi.path=\"/proc/self/fd/");
  size_t end_links = count_of(r.err, "uprobe_multi.path=\"" + rawprobe_path() + "\"");
  CHECK_MESSAGE(wildcard_links == 0, r.err);
  CHECK(end_links == 1);
  MESSAGE(wildcard_links << " wildcard links made after the signal; " << m[1] << " probes resolved, END's included");
}

TEST_SUITE_END();
