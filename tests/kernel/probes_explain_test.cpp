// --explain and -l through the real CLI, on this machine's kernel: a tracepoint's id and
// format against tracefs's own files, a misspelt tracepoint's suggestion, and kprobe listing
// on a kernel with and without kprobes (the oracle: the kprobe PMU in sysfs or
// kprobe_events in tracefs, which exist exactly when the kernel was built with them).
#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using cli_test::run_rawprobe;

namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const char* kTracefs = "/sys/kernel/tracing";

bool kernel_has_kprobes() {
  return ::access("/sys/bus/event_source/devices/kprobe", F_OK) == 0 ||
         ::access((std::string(kTracefs) + "/kprobe_events").c_str(), F_OK) == 0;
}

}  // namespace

TEST_CASE("--explain tracepoint: its id and format are tracefs's") {
  std::string dir = std::string(kTracefs) + "/events/syscalls/sys_enter_read";
  REQUIRE_MESSAGE(::access((dir + "/id").c_str(), R_OK) == 0, "tracefs must be mounted at " << kTracefs);
  std::string id = file_text(dir + "/id");
  id.pop_back();
  cli_test::RunResult r = run_rawprobe({"--explain", "tracepoint:syscalls:sys_enter_read"});
  CAPTURE(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("tracepoint:syscalls:sys_enter_read: id " + id + " (" + dir + "/id)") != std::string::npos);
  CHECK(r.out.find("perf_event_open(PERF_TYPE_TRACEPOINT, config = " + id + ")") != std::string::npos);
  CHECK(r.out.find(file_text(dir + "/format")) != std::string::npos);
}

TEST_CASE("--explain of a misspelt tracepoint suggests the real one and exits 1") {
  cli_test::RunResult r = run_rawprobe({"--explain", "tracepoint:syscalls:sys_enter_reed"});
  CHECK(r.status == 1);
  CHECK(r.err.find("tracepoint not found: syscalls:sys_enter_reed") != std::string::npos);
  CHECK(r.err.find("did you mean 'tracepoint:syscalls:sys_enter_read'?") != std::string::npos);
}

TEST_CASE("-l kprobe: the kernel's functions, or a clear note on a kernel without kprobes") {
  for (const char* pattern : {"kprobe", "kprobe:*", "kretprobe:vfs_*"}) {
    CAPTURE(pattern);
    cli_test::RunResult r = run_rawprobe({"-l", pattern});
    CAPTURE(r.err);
    CHECK(r.status == 0);
    if (kernel_has_kprobes()) {
      CHECK(r.out.find(std::string(pattern).rfind("kretprobe", 0) == 0 ? "kretprobe:vfs_read\n" : "kprobe:") !=
            std::string::npos);
      CHECK(r.err.find("no kprobes") == std::string::npos);
    } else {
      CHECK(r.out.empty());
      CHECK(r.err.find("note: this kernel has no kprobes (built without CONFIG_KPROBES)") != std::string::npos);
    }
  }
  // A listing of everything still lists the rest, with the note only when kprobes were asked for.
  cli_test::RunResult all = run_rawprobe({"-l", "*sys_enter_read"});
  CHECK(all.status == 0);
  CHECK(all.out.find("tracepoint:syscalls:sys_enter_read\n") != std::string::npos);
}

TEST_CASE("--explain uprobe names the attach a run with the same --attach-mode makes") {
  const std::string fun = cli_test::sample("fun");
  const std::string probe = "uprobe:" + fun + ":bar";
  // Each way to attach: the start of --explain's attach line, and what --trace-syscalls shows
  // a run doing (feature probes use other paths; a run hands the kernel the sample through
  // the descriptor it inspected, /proc/self/fd/N).
  struct Route {
    const char* explained;
    std::string traced;
  };
  const Route multi{"attach: one uprobe_multi link per binary", "uprobe_multi.path=\"/proc/self/fd/"};
  const Route pmu{"attach: perf_event_open on the uprobe PMU", "config1=\"/proc/self/fd/"};
  const Route legacy{"attach: a uprobe_events entry", "/uprobe_events\", \"p:rawprobe_"};
  for (const char* mode : {"auto", "pmu", "legacy"}) {
    CAPTURE(mode);
    cli_test::RunResult did = run_rawprobe({"--trace-syscalls", std::string("--attach-mode=") + mode, "-c", fun,
                                            "-e", probe + " { @ = count(); }"});
    INFO(did.err);
    REQUIRE(did.status == 0);
    bool used_multi = did.err.find(multi.traced) != std::string::npos;
    bool used_pmu = did.err.find(pmu.traced) != std::string::npos;
    bool used_legacy = did.err.find(legacy.traced) != std::string::npos;
    REQUIRE(int(used_multi) + int(used_pmu) + int(used_legacy) == 1);
    const Route& used = used_multi ? multi : used_pmu ? pmu : legacy;
    // A forced mode takes its own path; auto takes whichever the kernel has (uprobe_multi, 6.6+).
    if (std::string(mode) == "pmu") CHECK(used_pmu);
    if (std::string(mode) == "legacy") CHECK(used_legacy);
    cli_test::RunResult told = run_rawprobe({"--explain", probe, std::string("--attach-mode=") + mode});
    INFO(told.out, told.err);
    CHECK(told.status == 0);
    CHECK(told.out.find(std::string("\n") + used.explained) != std::string::npos);
  }
}
