// rawtracepoint:NAME through the real CLI on this machine's kernel. The oracle is the kernel's
// own tracepoint of the same name (tracepoint:raw_syscalls:sys_enter, tracepoint:sched:*),
// fired by the same call site: both must see the same events. bpftrace 0.17 cannot serve
// here: it parses `rawtracepoint:` and then dies ("FATAL: Invalid probe type made it to
// attachpoint parser"), so it has no output to compare with.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "engine/sys/host_root.h"
#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// "@name: N" and "@name[key]: N" lines of a run's output, keyed "name" / "name[key]".
std::map<std::string, long> map_values(const std::string& out) {
  std::map<std::string, long> values;
  static const std::regex line(R"(@([^:\s]+(?:\[[^\]]*\])?): (-?\d+))");
  for (const std::string& l : lines_starting(out, "@")) {
    std::smatch m;
    if (std::regex_match(l, m, line)) values[m[1]] = std::stol(m[2]);
  }
  return values;
}

// A child of this test that waits in sigwait() for SIGUSR1 (blocked before the fork, so it
// cannot arrive too early), then makes `calls` getppid() system calls and exits.
class GetppidChild {
 public:
  explicit GetppidChild(long calls) {
    sigset_t go, old;
    sigemptyset(&go);
    sigaddset(&go, SIGUSR1);
    sigprocmask(SIG_BLOCK, &go, &old);
    pid_ = fork();
    if (pid_ == 0) {
      int sig;
      sigwait(&go, &sig);
      for (long i = 0; i < calls; ++i) syscall(SYS_getppid);
      _exit(0);
    }
    sigprocmask(SIG_SETMASK, &old, nullptr);
  }
  ~GetppidChild() {
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  pid_t pid() const { return pid_; }
  // Lets it run; whether it exited normally.
  bool run_to_end() {
    int status = 0;
    kill(pid_, SIGUSR1);
    reaped_ = waitpid(pid_, &status, 0) == pid_;
    return reaped_ && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
};

// rawprobe -e SCRIPT, with a BEGIN line to know every probe is attached; `workload` runs
// then, and SIGINT ends the trace.
template <class Workload>
RunResult trace_during(const std::string& script, Workload workload, std::vector<std::string> options = {}) {
  std::vector<std::string> argv = {rawprobe_path()};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {"-e", "BEGIN { printf(\"attached\\n\"); } " + script});
  Process tracer(argv);
  if (!tracer.wait_for_output("attached\n", 30)) {
    RunResult r = tracer.finish(5);
    r.err += "\n[test: no BEGIN line within 30 s]\n";
    return r;
  }
  CHECK(workload());
  tracer.signal(SIGINT);
  return tracer.finish(30);
}

}  // namespace

TEST_CASE("rawtracepoint:sys_enter sees the syscalls tracepoint:raw_syscalls:sys_enter sees; arg1 is the syscall number") {
  constexpr long kCalls = 1234;
  GetppidChild child(kCalls);
  REQUIRE(child.pid() > 0);
  const std::string only = "pid == " + std::to_string(child.pid());
  const std::string nr = std::to_string(SYS_getppid), ppid = std::to_string(getpid());
  std::string script =
      "rawtracepoint:sys_enter /" + only + "/ { @raw_enter = count(); } "
      "tracepoint:raw_syscalls:sys_enter /" + only + "/ { @tp_enter = count(); } "
      "rt:sys_enter /" + only + " && arg1 == " + nr + "/ { @raw_getppid = count(); } "
      "tracepoint:raw_syscalls:sys_enter /" + only + " && args->id == " + nr + "/ { @tp_getppid = count(); } "
      // sys_exit(struct pt_regs *regs, long ret): arg1 is the return value, getppid's is us.
      "rawtracepoint:sys_exit /" + only + " && arg1 == " + ppid + "/ { @raw_ret = count(); } "
      "tracepoint:raw_syscalls:sys_exit /" + only + " && args->ret == " + ppid + "/ { @tp_ret = count(); }";
  RunResult r = trace_during(script, [&] { return child.run_to_end(); });
  INFO(r.out, r.err);
  CHECK(r.status == 0);
  std::map<std::string, long> v = map_values(r.out);
  CHECK(v["raw_getppid"] == kCalls);
  CHECK(v["tp_getppid"] == kCalls);
  CHECK(v["raw_ret"] == kCalls);
  CHECK(v["tp_ret"] == kCalls);
  // Everything the child did after the go: its getppids and exit_group at least.
  CHECK(v["raw_enter"] > kCalls);
  CHECK(v["raw_enter"] == v["tp_enter"]);
}

TEST_CASE("rawtracepoint:sched_process_* expands over the listed names; probe names each point; counts equal tracepoint:sched's") {
  // A copy of a sample under a name of our own: `comm` then singles out our execs.
  std::string name = "rtw" + std::to_string(getpid());
  std::string copy = "/tmp/" + name;
  std::filesystem::copy_file(sample("fun"), copy, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::permissions(copy, std::filesystem::perms::owner_all);
  constexpr int kRuns = 3;
  auto run_copies = [&] {
    bool ok = true;
    for (int i = 0; i < kRuns; ++i) ok = ok && run({copy}, 30).status == 0;
    return ok;
  };
  std::string filter = "/comm == \"" + name + "\"/";
  RunResult r = trace_during("rawtracepoint:sched_process_* " + filter + " { @raw[probe] = count(); } "
                             "tracepoint:sched:sched_process_* " + filter + " { @tp[probe] = count(); }",
                             run_copies);
  std::filesystem::remove(copy);
  INFO(r.out, r.err);
  CHECK(r.status == 0);

  RunResult listed = run_rawprobe({"-l", "rawtracepoint:sched_process_*"});
  std::vector<std::string> names = lines_starting(listed.out, "rawtracepoint:sched_process_");
  CHECK(names.size() >= 3);  // exec, exit, fork at least
  // One point per listed name, plus the tracepoints and BEGIN.
  RunResult tps = run_rawprobe({"-l", "tracepoint:sched:sched_process_*"});
  size_t expected = names.size() + lines_starting(tps.out, "tracepoint:").size() + 1;
  CHECK(r.out.find("Attaching " + std::to_string(expected) + " probes...") != std::string::npos);

  std::map<std::string, long> v = map_values(r.out);
  CHECK(v["raw[rawtracepoint:sched_process_exec]"] == kRuns);
  CHECK(v["raw[rawtracepoint:sched_process_exit]"] == kRuns);
  // Each event either way round: the same count under both names. (fork and wait run in
  // the parent; free runs from an RCU callback in whatever task is current, sometimes ours.)
  std::map<std::string, long> raw, tp;
  for (const auto& [key, count] : v) {
    std::string event = key.substr(key.rfind(':') + 1, key.size() - key.rfind(':') - 2);
    if (key.rfind("raw[rawtracepoint:", 0) == 0) raw[event] = count;
    if (key.rfind("tp[tracepoint:sched:", 0) == 0) tp[event] = count;
  }
  CHECK(raw.size() >= 2);
  CHECK(raw == tp);
}

TEST_CASE("a wildcard block without `probe` is one program opened on every name; with `probe`, one per name") {
  RunResult listed = run_rawprobe({"-l", "rawtracepoint:sched_process_*"});
  size_t names = lines_starting(listed.out, "rawtracepoint:").size();
  REQUIRE(names >= 3);
  auto count = [](const std::string& text, const std::regex& re) {
    return size_t(std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
  };
  static const std::regex load(R"(bpf\(BPF_PROG_LOAD, \{prog_type=BPF_PROG_TYPE_RAW_TRACEPOINT, [^\n]*\) = (\d+))");
  static const std::regex open(R"(bpf\(BPF_RAW_TRACEPOINT_OPEN, \{name="sched_process_\w+", prog_fd=(\d+)\}, 12\) = \d+)");
  RunResult one = run_rawprobe({"--trace-syscalls", "-e", "rt:sched_process_* /pid == 0/ { @ = count(); } BEGIN { exit(); }"});
  INFO(one.err);
  CHECK(one.status == 0);
  CHECK(count(one.err, load) == 1);
  CHECK(count(one.err, open) == names);
  std::set<std::string> fds;
  for (auto it = std::sregex_iterator(one.err.begin(), one.err.end(), open); it != std::sregex_iterator(); ++it)
    fds.insert((*it)[1]);
  CHECK(fds.size() == 1);

  RunResult each = run_rawprobe({"--trace-syscalls", "-e", "rt:sched_process_* /pid == 0/ { @[probe] = count(); } BEGIN { exit(); }"});
  INFO(each.err);
  CHECK(each.status == 0);
  CHECK(count(each.err, load) == names);
  CHECK(count(each.err, open) == names);
}

TEST_CASE("--trace-syscalls shows BPF_RAW_TRACEPOINT_OPEN with the name and the loaded program's fd") {
  RunResult r = run_rawprobe({"--trace-syscalls", "-e", "rawtracepoint:sys_enter /pid == 0/ { @ = count(); } BEGIN { exit(); }"});
  INFO(r.err);
  CHECK(r.status == 0);
  std::smatch load, open;
  static const std::regex load_line(
      R"(bpf\(BPF_PROG_LOAD, \{prog_type=BPF_PROG_TYPE_RAW_TRACEPOINT, [^\n]*prog_name="sys_enter"\}, \d+\) = (\d+))");
  REQUIRE(std::regex_search(r.err, load, load_line));
  static const std::regex open_line(R"(bpf\(BPF_RAW_TRACEPOINT_OPEN, \{name="sys_enter", prog_fd=(\d+)\}, 12\) = (\d+))");
  REQUIRE(std::regex_search(r.err, open, open_line));
  CHECK(open[1] == load[1]);
}

TEST_CASE("an argument past the tracepoint's own: the kernel's EINVAL, traced and explained, exit 1") {
  // sys_enter(struct pt_regs *regs, long id): arg1 is its last argument.
  RunResult ok = run_rawprobe({"-e", "rawtracepoint:sys_enter /pid == 0/ { @ = arg1; } BEGIN { exit(); }"});
  CHECK(ok.status == 0);
  RunResult r = run_rawprobe({"--trace-syscalls", "-e", "rawtracepoint:sys_enter /pid == 0/ { @ = arg2; } BEGIN { exit(); }"});
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(std::regex_search(r.err, std::regex(R"(bpf\(BPF_RAW_TRACEPOINT_OPEN, \{name="sys_enter", prog_fd=\d+\}, 12\) = -1 EINVAL)")));
  CHECK(r.err.find("rawprobe: attach raw tracepoint 'rawtracepoint:sys_enter': bpf(BPF_RAW_TRACEPOINT_OPEN): EINVAL") !=
        std::string::npos);
  CHECK(r.err.find("hint: the program reads an argument the tracepoint does not have") != std::string::npos);
}

TEST_CASE("a missing raw tracepoint: which name, close names, the -l pattern; exit 1 before any program is loaded") {
  RunResult r = run_rawprobe({"--trace-syscalls", "-e", "rawtracepoint:sched_swtich { @ = count(); }"});
  INFO(r.err);
  CHECK(r.status == 1);
  CHECK(r.err.find("error: rawtracepoint 'sched_swtich' not found; did you mean 'rawtracepoint:sched_switch'? "
                   "(list them with -l 'rawtracepoint:*')") != std::string::npos);
  CHECK(r.err.find("BPF_PROG_TYPE_RAW_TRACEPOINT") == std::string::npos);
  CHECK(r.err.find("BPF_RAW_TRACEPOINT_OPEN") == std::string::npos);

  // A syscall event has no raw tracepoint of its own: say which one covers it.
  r = run_rawprobe({"-e", "rt:sys_enter_getppid { @ = count(); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("error: rawtracepoint 'sys_enter_getppid' not found; 'sys_enter_getppid' is an ftrace syscall "
                   "event (tracepoint:syscalls:sys_enter_getppid), not a kernel tracepoint; rawtracepoint:sys_enter "
                   "fires for every syscall, with the syscall number in arg1") != std::string::npos);
}

TEST_CASE("--explain rawtracepoint names the tracefs category and the attach call") {
  RunResult r = run_rawprobe({"--explain", "rt:sys_enter"});
  INFO(r.out, r.err);
  CHECK(r.status == 0);
  CHECK(std::filesystem::exists("/sys/kernel/tracing/events/raw_syscalls/sys_enter"));
  CHECK(r.out == "rawtracepoint:sys_enter: program type raw_tracepoint\n"
                 "kernel tracepoint sys_enter (listed in tracefs as raw_syscalls:sys_enter)\n"
                 "attach: bpf(BPF_RAW_TRACEPOINT_OPEN, name = \"sys_enter\"); argN reads u64 args[N], the "
                 "tracepoint's own arguments\n");
}

TEST_CASE("a tracepoint with no trace event (BTF only) is listed, explained and attached") {
  // Without BTF the kernel names no such tracepoint to rawprobe: attaching it is refused.
  if (!kernel_btf_present())
    return check_refused_without_btf({"-e", "rawtracepoint:sched_update_nr_running_tp { @ = count(); }"});
  // DECLARE_TRACE without an event: nothing in tracefs, but a raw tracepoint all the same.
  std::string events;
  REQUIRE(sys::read_text_file("/sys/kernel/tracing/available_events", events));
  RunResult listed = run_rawprobe({"-l", "rawtracepoint:sched_update_nr_running_tp"});
  REQUIRE_MESSAGE(listed.out == "rawtracepoint:sched_update_nr_running_tp\n", listed.out << listed.err);
  CHECK(events.find(":sched_update_nr_running_tp\n") == std::string::npos);
  RunResult explained = run_rawprobe({"--explain", "rt:sched_update_nr_running_tp"});
  CHECK(explained.out.find("kernel tracepoint sched_update_nr_running_tp (no tracefs event; declared in BTF as "
                           "btf_trace_sched_update_nr_running_tp)\n") != std::string::npos);
  // sched_update_nr_running_tp(struct rq *rq, int change): a run queue's length changes by
  // `change` on every enqueue and dequeue, and sleeping children make plenty of those.
  auto sleepers = [] {
    bool ok = true;
    for (int i = 0; i < 3; ++i) ok = ok && run({"sleep", "0.01"}, 30).status == 0;
    return ok;
  };
  RunResult r = trace_during("rawtracepoint:sched_update_nr_running_tp { @changes = count(); }", sleepers);
  INFO(r.out, r.err);
  CHECK(r.status == 0);
  CHECK(map_values(r.out)["changes"] > 0);
}

// bpftool and the kernel's BTF are only on the build host (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("the listed raw tracepoints are exactly those the kernel's BTF declares (btf_trace_NAME typedefs)") {
  std::set<std::string> declared;
  for (const auto& entry : std::filesystem::directory_iterator("/sys/kernel/btf")) {
    std::string file = entry.path().string();
    std::vector<std::string> cmd = {"bpftool", "btf", "dump", "file", file};
    if (entry.path().filename() != "vmlinux") cmd.insert(cmd.end(), {"-B", "/sys/kernel/btf/vmlinux"});
    RunResult dump = run(cmd, 60);
    REQUIRE_MESSAGE(dump.status == 0, file << ": " << dump.err);
    static const std::regex typedef_line(R"(TYPEDEF 'btf_trace_([A-Za-z0-9_]+)')");
    for (auto it = std::sregex_iterator(dump.out.begin(), dump.out.end(), typedef_line); it != std::sregex_iterator(); ++it)
      declared.insert((*it)[1]);
  }
  REQUIRE(declared.count("sched_switch"));
  RunResult listed = run_rawprobe({"-l", "rawtracepoint:*"});
  std::set<std::string> names;
  for (const std::string& line : lines_starting(listed.out, "rawtracepoint:"))
    names.insert(line.substr(std::string("rawtracepoint:").size()));
  CHECK(names.size() > 100);
  for (const std::string& name : names)
    CHECK_MESSAGE(declared.count(name), name << " is listed but has no btf_trace_" << name);
  for (const std::string& name : declared)
    CHECK_MESSAGE(names.count(name), "btf_trace_" << name << " is declared but " << name << " is not listed");
}

TEST_SUITE_END();
