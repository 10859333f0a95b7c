// A machine as it boots without tracefs or debugfs mounted (busybox boards, containers, rescue
// systems): each case runs in a private mount namespace made by `unshare`, unmounts both there,
// and runs rawprobe; the host's own mounts never change. rawprobe mounts tracefs itself where
// it needs it, says so in one line, and a run that cannot mount it says exactly that.
#include <doctest/doctest.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <sys/stat.h>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

constexpr const char* kMountedLine =
    "rawprobe: tracefs was not mounted; mounted it at /sys/kernel/tracing (left mounted: umount "
    "/sys/kernel/tracing undoes it)\n";
constexpr const char* kMarker = "=== next run ===";

// `commands` (shell text, run one after another with a marker line between them on both
// streams) in a private mount namespace where tracefs and debugfs are unmounted first.
RunResult run_bare(const std::vector<std::string>& commands, int seconds = 120) {
  std::string shell = "for m in /sys/kernel/debug/tracing /sys/kernel/tracing /sys/kernel/debug; do "
                      "umount \"$m\" 2>/dev/null; done; "
                      "if mountpoint -q /sys/kernel/tracing || mountpoint -q /sys/kernel/debug; then "
                      "echo 'test: could not unmount tracefs/debugfs' >&2; exit 99; fi";
  for (size_t i = 0; i < commands.size(); ++i) {
    if (i) shell += std::string("; echo '") + kMarker + "'; echo '" + kMarker + "' >&2";
    shell += "; " + commands[i];
  }
  return run({"unshare", "--mount", "--propagation", "private", "sh", "-c", shell}, seconds);
}

// The parts of a stream between the marker lines.
std::vector<std::string> runs_of(const std::string& text) {
  std::vector<std::string> parts;
  std::string marker = std::string(kMarker) + "\n";
  size_t at = 0;
  while (true) {
    size_t m = text.find(marker, at);
    parts.push_back(text.substr(at, m == std::string::npos ? std::string::npos : m - at));
    if (m == std::string::npos) return parts;
    at = m + marker.size();
  }
}

// The read_rand command of `make demo` (mk/demo.mk), with this build's paths: the test runs
// what a new user's first `make demo` runs.
std::string demo_read_rand_command() {
  std::ifstream in(source_root() + "/mk/demo.mk");
  std::string line, found;
  while (std::getline(in, line))
    if (line.find("@$(BUILD)/rawprobe -c $(DEMO_RR)") != std::string::npos) found = line;
  REQUIRE_MESSAGE(!found.empty(), "mk/demo.mk has no read_rand command");
  found = found.substr(found.find('@') + 1);
  std::string build = build_dir();
  for (auto [var, value] : std::vector<std::pair<std::string, std::string>>{
           {"$(DEMO_RR)", build + "/samples/read_rand"}, {"$(BUILD)", build}}) {
    for (size_t at = found.find(var); at != std::string::npos; at = found.find(var))
      found.replace(at, var.size(), value);
  }
  return found;
}

// read_rand's own account, "thread N tid T read B bytes", as tid -> bytes.
std::map<std::string, std::string> thread_reads(const std::string& out) {
  std::map<std::string, std::string> reads;
  std::regex line_re(R"(thread \d+ tid (\d+) read (\d+) bytes)");
  for (const std::string& line : lines_starting(out, "thread ")) {
    std::smatch m;
    if (std::regex_match(line, m, line_re)) reads[m[1]] = m[2];
  }
  return reads;
}

// The demo's @ret check: one @ret line per read_rand thread, holding the bytes it says it read.
void check_demo_output(const std::string& out) {
  std::map<std::string, std::string> reads = thread_reads(out);
  CHECK_MESSAGE(reads.size() == 4, out);
  for (const auto& [tid, bytes] : reads)
    CHECK_MESSAGE(out.find("@ret[" + tid + "]: " + bytes + "\n") != std::string::npos, tid, "\n", out);
  CHECK_MESSAGE(out.find("Attaching 3 probes...\n") == 0, out);
}

bool host_tracefs_mounted() { return std::system("mountpoint -q /sys/kernel/tracing") == 0; }

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("bare machine: make demo's read_rand command mounts tracefs once and prints its maps") {
  bool host_before = host_tracefs_mounted();
  std::string demo = demo_read_rand_command();
  std::string open_read = sample("open_read");
  std::string one_liner = rawprobe_path() + " -c " + shell_quote(open_read + " 3") +
                          " -e 'tracepoint:syscalls:sys_enter_openat /comm == \"open_read\" && "
                          "str(args->filename) == \"/proc/self/exe\"/ { @opens = count(); }'";
  RunResult r = run_bare({demo, demo, one_liner, "mountpoint /sys/kernel/tracing"});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  std::vector<std::string> out = runs_of(r.out), err = runs_of(r.err);
  REQUIRE(out.size() == 4);
  REQUIRE(err.size() == 4);
  // First run: the whole stderr is the one line saying what was mounted.
  CHECK(err[0] == kMountedLine);
  check_demo_output(out[0]);
  // Second run: tracefs is there now; nothing is mounted and nothing said.
  CHECK(err[1] == "");
  check_demo_output(out[1]);
  // A tracepoint one-liner counts open_read's own opens of its path (/proc/self/exe; the
  // dynamic loader's opens are left out by the filter).
  CHECK(err[2] == "");
  std::vector<std::string> opens = lines_starting(out[2], "opens ");
  REQUIRE(opens.size() == 1);
  CHECK_MESSAGE(out[2].find("@opens: " + opens[0].substr(6) + "\n") != std::string::npos, out[2]);
  CHECK(out[3] == "/sys/kernel/tracing is a mountpoint\n");
  // Only the namespace saw the mount.
  CHECK(host_tracefs_mounted() == host_before);
}

TEST_CASE("bare machine: a tracepoint one-liner mounts tracefs, and --trace-syscalls shows the mount") {
  RunResult r = run_bare({rawprobe_path() +
                          " --trace-syscalls -e 'tracepoint:syscalls:sys_enter_getppid { @ = count(); } "
                          "interval:ms:100 { exit(); }' 2>&1 >/dev/null | grep -e '^mount(' -e '^rawprobe:'"});
  CHECK(r.status == 0);
  CHECK(r.out == std::string("mount(\"nodev\", \"/sys/kernel/tracing\", \"tracefs\", MS_NOSUID|MS_NODEV|MS_NOEXEC, "
                             "NULL) = 0\n") +
                     kMountedLine);
}

TEST_CASE("bare machine: every entry point that reads tracefs mounts it (-l, -lv, --explain, --info, --dry-run)") {
  for (const std::string& args : {std::string("-l 'tracepoint:syscalls:sys_enter_getppid'"),
                                  std::string("-lv 'tracepoint:syscalls:sys_enter_getppid'"),
                                  std::string("--explain tracepoint:syscalls:sys_enter_getppid"),
                                  std::string("--info"),
                                  std::string("--dry-run -e 'tracepoint:syscalls:sys_enter_getppid { @ = count(); }'")}) {
    CAPTURE(args);
    RunResult r = run_bare({rawprobe_path() + " " + args});
    CHECK_MESSAGE(r.status == 0, r.err);
    std::string expected_err = kMountedLine;
    if (args.rfind("--dry-run", 0) == 0)
      expected_err += "rawprobe: dry run: 1 program(s) loaded, 1 probe(s) resolved, nothing attached\n";
    CHECK(r.err == expected_err);
    // The same command where tracefs is mounted prints the same.
    RunResult mounted = run({"sh", "-c", rawprobe_path() + " " + args});
    CHECK(mounted.status == 0);
    if (args != "--info") CHECK(r.out == mounted.out);
    else CHECK(r.out.find("\ntracefs ") != std::string::npos);
  }
}

TEST_CASE("bare machine without the privilege to mount: one error, saying why, and no cascade") {
  // A user namespace: root inside it, but tracefs cannot be mounted from there (EPERM).
  std::string script = "tracepoint:syscalls:sys_exit_read /comm == \"x\"/ { @ret[tid] = args->ret; } END { print(@ret); }";
  RunResult r = run_bare({"unshare --user --map-root-user " + rawprobe_path() + " -e " + shell_quote(script)});
  CHECK(r.status == 1);
  CHECK(r.out == "");
  CHECK(r.err ==
        "-e:1:1: error: find tracefs: it is not mounted, and mounting it failed (/sys/kernel/tracing): EPERM; "
        "mounting tracefs needs root (CAP_SYS_ADMIN in the host's user namespace); mount it as root: "
        "mount -t tracefs nodev /sys/kernel/tracing\n" +
            script + "\n^" + std::string(std::string("tracepoint:syscalls:sys_exit_read").size() - 1, '~') + "\n");
}

TEST_CASE("bare machine: a kernel without /sys/kernel/tracing (before 4.1) gets debugfs mounted and its tracing/ used") {
  // A tmpfs over /sys/kernel stands in for such a kernel's sysfs: /sys/kernel/debug, no tracing.
  std::string script = rawprobe_path() +
                       " -e 'tracepoint:syscalls:sys_enter_getppid { @ = count(); } interval:ms:100 { exit(); }'";
  RunResult r = run_bare({"mount -t tmpfs none /sys/kernel && mkdir /sys/kernel/debug && " + script,
                          "mountpoint /sys/kernel/debug", script});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  std::vector<std::string> out = runs_of(r.out), err = runs_of(r.err);
  REQUIRE(err.size() == 3);
  CHECK(err[0] ==
        "rawprobe: tracefs was not mounted and this kernel has no /sys/kernel/tracing; mounted debugfs at "
        "/sys/kernel/debug to use /sys/kernel/debug/tracing (left mounted: umount /sys/kernel/debug undoes it)\n");
  CHECK_MESSAGE(out[0].find("Attaching 2 probes...\n") == 0, out[0]);
  CHECK_MESSAGE(out[0].find("\n@: ") != std::string::npos, out[0]);
  CHECK(out[1] == "/sys/kernel/debug is a mountpoint\n");
  CHECK(err[2] == "");
  CHECK_MESSAGE(out[2].find("\n@: ") != std::string::npos, out[2]);
}

TEST_SUITE_END();
