// `-l` / `-lv` lines against bpftrace 0.17 (the oracle) on the same inputs: tracepoints,
// a sample binary's uprobes, python3.11's USDT probes, tracepoint fields. Known differences
// are listed where they apply (bpftrace prints `software:*:` for `software:*`, lists no
// BEGIN/END/interval/profile, and cannot list rawtracepoint).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "engine/probes/listing.h"
#include "tests/unit/probes_capture.h"
#include "tests/kernel/cli_run.h"
#include "tests/kernel/sys_support.h"

using namespace rawprobe;

namespace {

std::string bpftrace_list(const std::string& args) {
  return probes::test::command_output("bpftrace " + args + " 2>/dev/null");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

// Every case runs bpftrace 0.17 (some list python3.11 too), which only the build host has:
// the VM guest leaves the suite "host-only" out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("tracepoint listings equal bpftrace's") {
  for (const char* pattern : {"tracepoint:syscalls:*read*", "tracepoint:sched:*", "tracepoint:*:*",
                              "t:syscalls:sys_enter_read"}) {
    CAPTURE(pattern);
    std::string oracle = bpftrace_list("-l '" + std::string(pattern) + "'");
    REQUIRE_FALSE(oracle.empty());
    CHECK(lines_of(probes::test::listed(pattern)) == lines_of(oracle));
  }
}

TEST_CASE("-lv tracepoint fields equal bpftrace's") {
  for (const char* pattern : {"tracepoint:syscalls:sys_enter_read", "tracepoint:syscalls:sys_exit_read",
                              "tracepoint:sched:sched_process_exec"}) {
    CAPTURE(pattern);
    std::string oracle = bpftrace_list("-lv '" + std::string(pattern) + "'");
    REQUIRE_FALSE(oracle.empty());
    CHECK(probes::test::listed(pattern, true) == oracle);
  }
}

TEST_CASE("uprobe and uretprobe listings of a sample equal bpftrace's") {
  std::string fun = sys::ktest::sample_path("fun");
  for (std::string provider : {"uprobe", "uretprobe"}) {
    std::string pattern = provider + ":" + fun + ":*";
    std::string oracle = bpftrace_list("-l '" + pattern + "'");
    REQUIRE_FALSE(oracle.empty());
    CHECK(lines_of(probes::test::listed(pattern)) == lines_of(oracle));
  }
  std::string pattern = "uprobe:" + fun + ":f*";
  CHECK(lines_of(probes::test::listed(pattern)) == lines_of(bpftrace_list("-l '" + pattern + "'")));
}

TEST_CASE("usdt listing of python3.11 and hello_usdt equals bpftrace's") {
  for (std::string pattern : {std::string("usdt:/usr/bin/python3.11:*"),
                              std::string("usdt:/usr/bin/python3.11:*gc*"),
                              "usdt:" + sys::ktest::sample_path("hello_usdt") + ":*"}) {
    CAPTURE(pattern);
    std::string oracle = bpftrace_list("-l '" + pattern + "'");
    REQUIRE_FALSE(oracle.empty());
    CHECK(lines_of(probes::test::listed(pattern)) == lines_of(oracle));
  }
}

TEST_CASE("whole-line patterns: the seed's grep pipelines see the same tracepoint lines") {
  std::string oracle = probes::test::command_output("bpftrace -l 2>/dev/null | grep init_module");
  std::string mine;
  for (const std::string& line : lines_of(probes::test::listed("")))
    if (line.find("init_module") != std::string::npos) mine += line + "\n";
  CHECK(mine == oracle);
  // bpftrace 0.17 prints its pattern back ("software:*:"); we print each event.
  std::vector<std::string> software = lines_of(probes::test::listed("software:*"));
  CHECK(std::find(software.begin(), software.end(), std::string("software:cpu-clock:")) != software.end());
  std::vector<std::string> all = lines_of(probes::test::listed(""));
  for (const char* expected : {"BEGIN", "END", "interval:ms:", "profile:hz:", "hardware:cpu-cycles:",
                               "rawtracepoint:sched_switch", "tracepoint:syscalls:sys_enter_read"})
    CHECK_MESSAGE(std::find(all.begin(), all.end(), std::string(expected)) != all.end(), expected);
}

TEST_CASE("a bare -l without tracefs mounts it and lists everything; unable to mount, it lists the rest and says why") {
  using namespace rawprobe::cli_test;
  RunResult mounted = run_rawprobe({"-l"}, 60);
  REQUIRE(mounted.status == 0);
  std::string without_tracepoints;
  size_t tracepoints = 0;
  for (const std::string& line : lines_of(mounted.out)) {
    if (line.rfind("tracepoint:", 0) == 0) ++tracepoints;
    else without_tracepoints += line + "\n";
  }
  REQUIRE(tracepoints > 0);
  // The same listing in a private mount namespace where tracefs (and debugfs, whose
  // tracing/ directory is tracefs again) is unmounted; the host's mounts stay as they are.
  auto unmounted_run = [](const std::string& prefix) {
    std::string shell = "for m in /sys/kernel/debug/tracing /sys/kernel/tracing /sys/kernel/debug; do "
                        "umount \"$m\" 2>/dev/null; done; exec " + prefix + "\"$0\" -l";
    return run({"unshare", "--mount", "--propagation", "private", "sh", "-c", shell, rawprobe_path()}, 60);
  };
  // As root: rawprobe mounts tracefs (one line says so) and lists exactly what it lists with it.
  RunResult as_root = unmounted_run("");
  CHECK(as_root.status == 0);
  CHECK(as_root.out == mounted.out);
  CHECK(as_root.err == "rawprobe: tracefs was not mounted; mounted it at /sys/kernel/tracing (left mounted: "
                       "umount /sys/kernel/tracing undoes it)\n");
  // In a user namespace, where tracefs cannot be mounted: every other provider, then why not these.
  RunResult no_mount = unmounted_run("unshare --user --map-root-user ");
  CHECK(no_mount.status == 1);
  CHECK(no_mount.out == without_tracepoints);
  CHECK(no_mount.err ==
        "rawprobe: no tracepoint probes listed: find tracefs: it is not mounted, and mounting it failed "
        "'/sys/kernel/tracing': mount(tracefs, /sys/kernel/tracing): EPERM (Operation not permitted)\n"
        "hint: mounting tracefs needs root (CAP_SYS_ADMIN in the host's user namespace); mount it as root: "
        "mount -t tracefs nodev /sys/kernel/tracing\n");
}

TEST_SUITE_END();

namespace rawprobe::cli_test {
namespace {

// Iterators are typed and attached through the kernel's BTF. Where it is missing (Debian's
// armmp kernels, and here by RAWPROBE_PRETEND_MISSING), the whole listing goes on without
// them, and a listing that names them says why.
TEST_CASE("without kernel BTF, -l leaves iter probes out and exits 0; -l 'iter:*' says why") {
  RunResult all = run({"env", "RAWPROBE_PRETEND_MISSING=kernel_btf", rawprobe_path(), "-l"});
  INFO(all.err);
  REQUIRE(all.status == 0);
  CHECK(!all.out.empty());
  CHECK(all.out.find("\niter:") == std::string::npos);
  CHECK(all.out.rfind("iter:", 0) != 0);
  RunResult iter = run({"env", "RAWPROBE_PRETEND_MISSING=kernel_btf", rawprobe_path(), "-l", "iter:*"});
  INFO(iter.err);
  CHECK(iter.status == 0);
  CHECK(iter.out.empty());
  CHECK(iter.err.find("note: this kernel has no BTF (no /sys/kernel/btf/vmlinux): no iter probes to list; "
                      "iterators need a kernel built with CONFIG_DEBUG_INFO_BTF") != std::string::npos);
}

}  // namespace
}  // namespace rawprobe::cli_test
