// rawprobe without root: as user nobody holding only the capabilities its run needs, it
// traces; with any one of them dropped it stops before loading anything, naming the one
// missing. What each attach mode needs is the kernel's rule (bpf_capable, perfmon_capable,
// CAP_SYS_ADMIN in the uprobe PMU, tracefs's file modes); the runs below are the kernel's
// answers to it, through setpriv(1), which sets the ambient set a non-root exec keeps. At
// kernel.perf_event_paranoid 3 the answer depends on the kernel (upstream's or Debian's).
#include <doctest/doctest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cstddef>
#include <fstream>
#include <regex>
#include <thread>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/fault_support.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// `argv` as user nobody with exactly `caps` ("bpf,perfmon"; "" for none), inherited across
// the exec (and by a -c command) through the ambient set.
std::vector<std::string> as_nobody(const std::string& caps, std::vector<std::string> argv) {
  std::string set = "-all";
  size_t at = 0;
  while (at < caps.size()) {
    size_t comma = caps.find(',', at);
    set += ",+" + caps.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? caps.size() : comma + 1;
  }
  std::vector<std::string> cmd{"setpriv", "--inh-caps=" + set, "--ambient-caps=" + set, "--reuid=nobody",
                               "--regid=nogroup", "--clear-groups", "--"};
  cmd.insert(cmd.end(), argv.begin(), argv.end());
  return cmd;
}

// `caps` without `drop`.
std::string without(const std::string& caps, const std::string& drop) {
  std::string rest;
  size_t at = 0;
  while (at <= caps.size()) {
    size_t comma = caps.find(',', at);
    std::string cap = caps.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    if (cap != drop) rest += (rest.empty() ? "" : ",") + cap;
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return rest;
}

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The count the sample reports of its own calls: "fun.c calls: fun=2 foo=4 bar=6".
std::string reported_bar_calls(const std::string& err) {
  std::smatch m;
  if (std::regex_search(err, m, std::regex("fun\\.c calls: fun=[0-9]+ foo=[0-9]+ bar=([0-9]+)"))) return m[1];
  return "?";
}

struct ModeCaps {
  const char* mode;
  const char* caps;  // what this attach mode needs on this kernel
};
// auto: uprobe_multi links, bpf_capable + perfmon_capable; pmu: the uprobe PMU's event_init
// wants CAP_SYS_ADMIN; legacy: writing tracefs's uprobe_events (root's, 0640, in a 0700
// directory) wants CAP_DAC_OVERRIDE.
constexpr ModeCaps kModes[] = {{"auto", "bpf,perfmon"}, {"pmu", "bpf,perfmon,sys_admin"},
                               {"legacy", "bpf,perfmon,dac_override"}};

// kernel.perf_event_paranoid set to `level` while it lives, then restored.
class ParanoidLevel {
 public:
  explicit ParanoidLevel(int level) {
    std::ifstream("/proc/sys/kernel/perf_event_paranoid") >> saved_;
    std::ofstream("/proc/sys/kernel/perf_event_paranoid") << level;
  }
  ~ParanoidLevel() { std::ofstream("/proc/sys/kernel/perf_event_paranoid") << saved_; }

 private:
  int saved_ = 2;
};

// `argv` with every perf_event_open answered EACCES, as Debian's kernels at paranoid 3 answer
// a process without CAP_SYS_ADMIN; this upstream kernel reads 3 as 2, so a seccomp filter
// stands in for the patch. The filter goes on a thread of its own, which the fork inherits.
RunResult run_with_perf_events_refused(const std::vector<std::string>& argv) {
  RunResult r;
  r.err = "seccomp filter not installed";
  std::thread([&] {
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog prog{sizeof filter / sizeof filter[0], filter};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0) r = run(argv);
  }).join();
  return r;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("As nobody at perf_event_paranoid 3: tracepoint and profile need CAP_SYS_ADMIN where the kernel refuses") {
  ParanoidLevel restricted(3);
  for (std::string block : {"tracepoint:syscalls:sys_enter_getppid { @n = count(); }", "profile:hz:99 { @n = count(); }"}) {
    CAPTURE(block);
    std::vector<std::string> argv{rawprobe_path(), "--trace-syscalls", "-e",
                                  block + " interval:ms:200 { exit(); }"};
    // This kernel reads 3 as 2: CAP_PERFMON opens them, CAP_SYS_ADMIN is not asked for.
    for (const char* caps : {"bpf,perfmon,dac_read_search", "bpf,perfmon,dac_read_search,sys_admin"}) {
      RunResult ran = run(as_nobody(caps, argv));
      CHECK_MESSAGE(ran.status == 0, caps << ": " << ran.err);
      CHECK(ran.out.find("\n@n: ") != std::string::npos);
    }
    RunResult refused = run_with_perf_events_refused(as_nobody("bpf,perfmon,dac_read_search", argv));
    CHECK(refused.status == 1);
    CHECK_MESSAGE(refused.err.find("rawprobe: opening perf events (kernel.perf_event_paranoid is 3 and this kernel lets "
                                   "only CAP_SYS_ADMIN open them there; sysctl kernel.perf_event_paranoid=2 lets "
                                   "CAP_PERFMON do it) needs CAP_SYS_ADMIN, which this process lacks\n") !=
                      std::string::npos,
                  refused.err);
    // Before anything is made: the one perf_event_open is the check's own dummy event.
    CHECK(refused.err.find("bpf(BPF_PROG_LOAD") == std::string::npos);
    CHECK(refused.err.find("bpf(BPF_MAP_CREATE") == std::string::npos);
    CHECK_MESSAGE(std::regex_search(refused.err, std::regex("perf_event_open\\(\\{type=PERF_TYPE_SOFTWARE, [^\n]*"
                                                            "config=PERF_COUNT_SW_DUMMY[^\n]* = -1 EACCES")),
                  refused.err);
    size_t opens = 0;
    for (size_t at = refused.err.find("perf_event_open("); at != std::string::npos;
         at = refused.err.find("perf_event_open(", at + 1))
      ++opens;
    CHECK(opens == 1);
  }
}

TEST_CASE("As nobody with capabilities alone: a uprobe counts what the sample reports; each one dropped is named") {
  std::string fun = sample("fun");
  for (const ModeCaps& m : kModes) {
    CAPTURE(m.mode);
    auto traced = [&](const std::string& caps) {
      return run(as_nobody(caps, {rawprobe_path(), "--trace-syscalls", "--attach-mode=" + std::string(m.mode), "-c",
                                  fun + " 3", "-e", "uprobe:" + fun + ":bar { @bar = count(); }"}),
                 60);
    };
    RunResult ok = traced(m.caps);
    CHECK_MESSAGE(ok.status == 0, ok.err);
    CHECK_MESSAGE(ok.out.find("@bar: " + reported_bar_calls(ok.err) + "\n") != std::string::npos, ok.out << ok.err);

    std::string caps = m.caps;
    for (size_t at = 0; at < caps.size();) {
      size_t comma = caps.find(',', at);
      std::string drop = caps.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      at = comma == std::string::npos ? caps.size() : comma + 1;
      CAPTURE(drop);
      RunResult r = traced(without(caps, drop));
      // CAP_SYS_ADMIN stands in for CAP_BPF and CAP_PERFMON, as the kernel's bpf_capable()
      // and perfmon_capable() say: with it held, dropping either changes nothing.
      if (caps.find("sys_admin") != std::string::npos && drop != "sys_admin") {
        CHECK_MESSAGE(r.status == 0, r.err);
        CHECK(r.out.find("@bar: " + reported_bar_calls(r.err) + "\n") != std::string::npos);
        continue;
      }
      CHECK(r.status == 1);
      CHECK_MESSAGE(r.err.find("needs CAP_" + upper(drop) + ", which this process lacks\n") != std::string::npos,
                    r.err);
      CHECK_MESSAGE(r.err.find("hint: run as root, or grant the capabilities to the binary: setcap cap_") !=
                        std::string::npos,
                    r.err);
      // Nothing made in the kernel before the error, and the command never ran.
      CHECK_MESSAGE(r.err.find("bpf(BPF_PROG_LOAD") == std::string::npos, r.err);
      CHECK(r.err.find("bpf(BPF_MAP_CREATE") == std::string::npos);
      CHECK(r.err.find("perf_event_open(") == std::string::npos);
      CHECK(r.err.find("fun.c calls:") == std::string::npos);
    }
  }
  CHECK(uprobe_events().find("rawprobe_") == std::string::npos);
}

TEST_CASE("As nobody: another user's process needs CAP_SYS_PTRACE, named before anything is read or loaded") {
  std::string fun = sample("fun");
  Process target({"sleep", "30"});  // root's
  std::vector<std::string> argv{rawprobe_path(), "--trace-syscalls", "-p", std::to_string(target.pid()), "-e",
                                "uprobe:" + fun + ":bar { @bar = count(); } interval:ms:200 { exit(); }"};
  RunResult denied = run(as_nobody("bpf,perfmon", argv));
  CHECK(denied.status == 1);
  CHECK_MESSAGE(denied.err.find("rawprobe: reading /proc/" + std::to_string(target.pid()) +
                                "/root/ (another user's process) needs CAP_SYS_PTRACE, which this process lacks\n") !=
                    std::string::npos,
                denied.err);
  CHECK(denied.err.find("bpf(") == std::string::npos);
  RunResult allowed = run(as_nobody("bpf,perfmon,sys_ptrace", argv));
  CHECK_MESSAGE(allowed.status == 0, allowed.err);
  CHECK(allowed.out.find("@bar: 0\n") != std::string::npos);  // sleep never calls fun's bar
  target.signal(SIGKILL);
}

TEST_CASE("As nobody: listing works where the files are readable; tracefs needs CAP_DAC_READ_SEARCH") {
  std::string fun = sample("fun");
  // The sample's symbols: readable by anyone, so the listing is root's listing.
  RunResult root = run_rawprobe({"-l", "uprobe:" + fun + ":*"});
  RunResult nobody = run(as_nobody("", {rawprobe_path(), "-l", "uprobe:" + fun + ":*"}));
  REQUIRE(root.status == 0);
  CHECK(nobody.status == 0);
  CHECK(nobody.out == root.out);
  CHECK(lines_starting(root.out, "uprobe:" + fun + ":bar").size() == 1);
  // tracefs is root's (a 0700 directory): the search the kernel refuses names the capability,
  // and with it held the listing is root's again.
  RunResult tp_root = run_rawprobe({"-l", "tracepoint:sched:*"});
  RunResult tp_denied = run(as_nobody("", {rawprobe_path(), "-l", "tracepoint:sched:*"}));
  RunResult tp_allowed = run(as_nobody("dac_read_search", {rawprobe_path(), "-l", "tracepoint:sched:*"}));
  REQUIRE(tp_root.status == 0);
  CHECK(tp_denied.status == 1);
  CHECK_MESSAGE(tp_denied.err.find("rawprobe: reading tracefs (/sys/kernel/tracing) needs CAP_DAC_READ_SEARCH, "
                                   "which this process lacks\n") != std::string::npos,
                tp_denied.err);
  CHECK(tp_allowed.status == 0);
  CHECK(tp_allowed.out == tp_root.out);
  // Tracing one needs the same read, besides the two every run needs.
  std::vector<std::string> trace{rawprobe_path(), "-e",
                                 "tracepoint:syscalls:sys_enter_getppid { @n = count(); } interval:ms:200 { exit(); }"};
  RunResult run_denied = run(as_nobody("bpf,perfmon", trace));
  RunResult run_allowed = run(as_nobody("bpf,perfmon,dac_read_search", trace));
  CHECK(run_denied.status == 1);
  CHECK_MESSAGE(run_denied.err.find("needs CAP_DAC_READ_SEARCH, which this process lacks") != std::string::npos,
                run_denied.err);
  CHECK_MESSAGE(run_allowed.status == 0, run_allowed.err);
  CHECK(run_allowed.out.find("\n@n: ") != std::string::npos);
}

TEST_SUITE_END();
