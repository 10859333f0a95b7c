// SIGTERM or SIGINT while a large tracepoint wildcard is attached (every syscalls:sys_enter_*
// and sys_exit_* tracepoint, each its own perf event, opened one by one): rawprobe stops
// attaching at the next tracepoint, ends the run as on any stop signal (END runs, the maps
// print, status 0) and releases what it attached. END is named first, so it is attached after
// the wildcard, once the signal is pending: it must be attached all the same.
#include <doctest/doctest.h>

#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include <regex>

#include "engine/sys/tracefs.h"
#include "tests/kernel/cli_run.h"
#include "tests/kernel/fault_support.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// The kernel's own count of the syscalls tracepoints whose name starts with `prefix`.
size_t syscall_tracepoints(const std::string& prefix) {
  Result<std::string> dir = sys::tracefs_dir();
  REQUIRE(dir);
  DIR* d = opendir((*dir + "/events/syscalls").c_str());
  REQUIRE(d != nullptr);
  size_t n = 0;
  while (dirent* e = readdir(d)) n += std::string(e->d_name).rfind(prefix, 0) == 0;
  closedir(d);
  return n;
}

size_t matches(const std::string& text, const std::regex& re) {
  return size_t(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("SIGTERM or SIGINT during a tracepoint wildcard's attach: stops, prints the maps, leaves nothing") {
  size_t total = syscall_tracepoints("sys_enter_") + syscall_tracepoints("sys_exit_");
  REQUIRE(total > 400);
  // auto: END's uprobe is a uprobe_multi link; pmu: a perf event opened in the loop that stops.
  for (auto [sig, mode] : {std::pair{SIGTERM, std::string("auto")}, std::pair{SIGINT, std::string("pmu")}}) {
    CAPTURE(sig);
    CAPTURE(mode);
    Process tracer({rawprobe_path(), "--trace-syscalls", "--attach-mode=" + mode, "-e",
                    "END { printf(\"end ran\\n\"); } "
                    "tracepoint:syscalls:sys_enter_*, tracepoint:syscalls:sys_exit_* { @calls[probe] = count(); } "
                    "BEGIN { @started = 1; }"});
    REQUIRE_MESSAGE(tracer.wait_for_output("probes...\n", 30), tracer.so_far().err);
    // Signal once a few of the wildcard's perf events are open, with what it holds then: all
    // of that must be gone after the run.
    size_t seen = 0;
    for (int i = 0; i < 30000 && seen < 12; ++i) {
      seen = fdinfo_of(tracer.pid(), "anon_inode:[perf_event]").size();
      if (seen < 12) usleep(1000);
    }
    std::set<std::string> progs = ids_in(fdinfo_of(tracer.pid(), "anon_inode:bpf-prog"), "prog_id");
    std::set<std::string> maps = ids_in(fdinfo_of(tracer.pid(), "anon_inode:bpf-map"), "map_id");
    std::set<std::string> links = ids_in(fdinfo_of(tracer.pid(), "anon_inode:bpf_link"), "link_id");
    tracer.signal(sig);
    RunResult r = tracer.finish(120);
    INFO("stdout:\n", r.out, "\nstderr (tail):\n", r.err.substr(r.err.size() > 3000 ? r.err.size() - 3000 : 0));
    REQUIRE_MESSAGE(seen >= 12, "no perf events appeared");
    CHECK(r.status == 0);
    CHECK(r.out.find("Attaching " + std::to_string(total + 2) + " probes...\n") != std::string::npos);
    CHECK(r.out.find("end ran\n") != std::string::npos);
    CHECK(r.out.find("\n@started: 1\n") != std::string::npos);
    CHECK(std::regex_search(r.out, std::regex("\n@calls\\[tracepoint:syscalls:sys_(enter|exit)_[a-z0-9_]+\\]: [0-9]+\n")));
    // What --trace-syscalls shows: far fewer tracepoints opened than the wildcard has (the
    // attach stopped at the signal, not after all of it).
    size_t opened = matches(r.err, std::regex("perf_event_open\\(\\{type=PERF_TYPE_TRACEPOINT[^\n]*\\) = [0-9]+\n"));
    CHECK(opened >= seen - 2);  // BEGIN's and END's perf events in pmu mode
    CHECK_MESSAGE(opened < total, opened << " of " << total);
    MESSAGE(mode << ", signal " << sig << ": " << opened << " of " << total << " tracepoints attached; "
                 << progs.size() << " programs, " << maps.size() << " maps, " << links.size() << " links released");
    CHECK(!progs.empty());
    CHECK(still_there("prog", progs).empty());
    CHECK(still_there("map", maps).empty());
    CHECK(still_there("link", links).empty());
  }
}

TEST_SUITE_END();
