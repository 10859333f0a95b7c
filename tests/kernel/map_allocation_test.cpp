// Aggregation maps without preallocation: where the kernel's verifier accepts a
// BPF_F_NO_PREALLOC hash map in every program type (6.1+, the `hash_on_demand` line of
// --info), rawprobe creates its per-CPU hash maps that way, except maps a perf_event program
// writes, and never its plain hash maps (each update replaces the element); elsewhere
// (RAWPROBE_PRETEND_MISSING=hash_on_demand stands in for an older kernel) every map is
// preallocated. The kernel's own record of each map (bpftool, by the ids in rawprobe's
// fdinfo) is the oracle for the flags, and fun's own call counts for the values, which must
// not depend on how the map was allocated.
#include <doctest/doctest.h>

#include <linux/bpf.h>

#include <map>
#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// Whether `rawprobe --info` reports the feature present on this kernel.
bool kernel_fills_hash_maps_on_update() {
  RunResult info = run_rawprobe({"--info"}, 30);
  REQUIRE(info.status == 0);
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(info.out, m, std::regex("\nhash maps allocated on update[^\n]*?  (yes|no)  ")),
                  info.out);
  return m[1] == "yes";
}

// Map name -> map_flags, as the kernel holds them, for every map `pid` has open.
std::map<std::string, unsigned> map_flags_held_by(pid_t pid) {
  std::map<std::string, unsigned> flags;
  for (const std::string& info : fdinfo_of(pid, "anon_inode:bpf-map")) {
    std::smatch id;
    REQUIRE(std::regex_search(info, id, std::regex("map_id:\\s*([0-9]+)")));
    RunResult shown = run({"bpftool", "-j", "map", "show", "id", id[1]}, 30);
    REQUIRE_MESSAGE(shown.status == 0, shown.err);
    std::smatch name, value;
    REQUIRE_MESSAGE(std::regex_search(shown.out, name, std::regex("\"name\":\"([^\"]*)\"")), shown.out);
    REQUIRE_MESSAGE(std::regex_search(shown.out, value, std::regex("\"flags\":([0-9]+)")), shown.out);
    flags[name[1]] = unsigned(std::stoul(value[1]));
  }
  return flags;
}

struct Observed {
  std::map<std::string, unsigned> flags;
  std::string out;
  long bar_calls = -1;  // as fun reported them
};

Observed run_script(const std::vector<std::string>& environment) {
  std::string fun = sample("fun");
  // Keyed counts: a count() without keys is a one-entry array, never a hash map.
  std::string script = "uprobe:" + fun + ":bar { @calls[comm] = count(); @last[tid] = nsecs; }"
                       " profile:hz:99 { @ticks[cpu] = count(); } BEGIN { printf(\"ready\\n\"); }";
  std::vector<std::string> argv = {"env"};
  argv.insert(argv.end(), environment.begin(), environment.end());
  argv.insert(argv.end(), {rawprobe_path(), "-e", script});
  Process tracer(argv);
  REQUIRE_MESSAGE(tracer.wait_for_output("ready\n", 30), tracer.so_far().err);
  Observed seen;
  seen.flags = map_flags_held_by(tracer.pid());
  RunResult workload = run({fun}, 30);
  REQUIRE(workload.status == 0);
  seen.bar_calls = sys::ktest::reported_calls(workload.err, "bar");
  tracer.signal(SIGINT);
  RunResult done = tracer.finish(30);
  CHECK_MESSAGE(done.status == 0, done.err);
  seen.out = done.out;
  return seen;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");  // bpftool is on the build host only

TEST_CASE("aggregation maps are filled on update where the kernel allows it, preallocated elsewhere, same counts") {
  bool on_update = kernel_fills_hash_maps_on_update();
  for (bool pretend_older : {false, true}) {
    CAPTURE(pretend_older);
    Observed seen = run_script(pretend_older ? std::vector<std::string>{"RAWPROBE_PRETEND_MISSING=hash_on_demand"}
                                             : std::vector<std::string>{});
    unsigned expected = on_update && !pretend_older ? BPF_F_NO_PREALLOC : 0;
    REQUIRE(seen.flags.count("calls"));
    REQUIRE(seen.flags.count("last"));
    REQUIRE(seen.flags.count("ticks"));
    CHECK((seen.flags["calls"] & BPF_F_NO_PREALLOC) == expected);
    // A plain hash map replaces its element on each update: always preallocated.
    CHECK((seen.flags["last"] & BPF_F_NO_PREALLOC) == 0);
    // Written from the profile timer's interrupt: always preallocated.
    CHECK((seen.flags["ticks"] & BPF_F_NO_PREALLOC) == 0);
    REQUIRE(seen.bar_calls > 0);
    CHECK_MESSAGE(seen.out.find("\n@calls[fun]: " + std::to_string(seen.bar_calls) + "\n") != std::string::npos, seen.out);
    // One thread ran bar: one @last key.
    std::regex last_key("\n@last\\[[0-9]+\\]: [0-9]+");
    CHECK(std::distance(std::sregex_iterator(seen.out.begin(), seen.out.end(), last_key), std::sregex_iterator()) == 1);
  }
}

TEST_SUITE_END();
