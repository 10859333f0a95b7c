// The CLI's run-level behaviour on the real kernel: Ctrl-C/SIGTERM end a run cleanly (END,
// maps, nothing left in tracefs, every program gone), -p follows a running process, -o/-q,
// the dumps and --dry-run, and every error path: a non-zero exit with a specific message and
// no probe left behind.
#include <doctest/doctest.h>

#include <dirent.h>

#include <regex>
#include <set>
#include <thread>

#include "engine/sys/host_root.h"
#include "engine/sys/tracefs.h"
#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

std::string uprobe_events() {
  Result<std::string> dir = sys::tracefs_dir();
  std::string text;
  if (dir) sys::read_text_file(*dir + "/uprobe_events", text);
  return text;
}

// fun's output without its own "I'm bar" text, which lands wherever its exit-time flush falls
// among rawprobe's lines.
std::string without_fun_text(std::string text) {
  for (size_t at; (at = text.find("I'm bar")) != std::string::npos;) text.erase(at, 7);
  return text;
}

bool has_events_of(pid_t pid) {
  return uprobe_events().find("rawprobe_" + std::to_string(pid) + "_") != std::string::npos;
}

// The ids of the BPF programs and perf events a process holds, from /proc/PID/fdinfo.
struct Held {
  std::set<unsigned> prog_ids;
  size_t perf_events = 0;
};
Held held_by(pid_t pid) {
  Held h;
  h.perf_events = fdinfo_of(pid, "anon_inode:[perf_event]").size();
  for (const std::string& info : fdinfo_of(pid, "anon_inode:bpf-prog")) {
    std::smatch m;
    if (std::regex_search(info, m, std::regex("prog_id:\\s*([0-9]+)"))) h.prog_ids.insert(unsigned(std::stoul(m[1])));
  }
  return h;
}

bool prog_exists(unsigned id) {
  return run({"bpftool", "prog", "show", "id", std::to_string(id)}, 30).status == 0;
}

}  // namespace

// These cases need what only the build host has (the dynamic build/rawprobe, the source
// tree's samples/*.bt, bpftrace or bpftool), so the VM guest leaves the suite "host-only"
// out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("SIGINT and SIGTERM end a run cleanly: END, maps, no tracefs event, no program left") {
  std::string fun = sample("fun");
  std::string script = "uprobe:" + fun + ":bar { @bar = count(); } tracepoint:syscalls:sys_enter_getppid { @t = count(); } "
                       "BEGIN { printf(\"ready\\n\"); } END { printf(\"end\\n\"); }";
  struct Way {
    int sig;
    bool ignored;  // started with SIGINT ignored, as `rawprobe ... &` is
  };
  for (Way way : {Way{SIGINT, false}, Way{SIGTERM, false}, Way{SIGINT, true}}) {
    CAPTURE(way.sig);
    CAPTURE(way.ignored);
    Process p({rawprobe_path(), "--attach-mode=legacy", "-e", script}, way.ignored);
    REQUIRE(p.wait_for_output("Attaching 4 probes...\n", 30));
    // BEGIN runs once every probe is attached: the legacy uprobe is in tracefs and the
    // programs are loaded.
    REQUIRE(p.wait_for_output("ready\n", 30));
    CHECK(has_events_of(p.pid()));
    Held held = held_by(p.pid());
    CHECK(held.prog_ids.size() >= 2);
    CHECK(held.perf_events >= 2);
    RunResult r = run({fun, "2"});
    long bars = sys::ktest::reported_calls(r.err, "bar");
    p.signal(way.sig);
    RunResult done = p.finish(30);
    INFO(done.out, done.err);
    CHECK(done.status == 0);
    CHECK(done.out.find("end\n\n\n") != std::string::npos);
    CHECK(done.out.find("@bar: " + std::to_string(bars) + "\n") != std::string::npos);
    CHECK(!has_events_of(p.pid()));
    for (unsigned id : held.prog_ids) CHECK_MESSAGE(!prog_exists(id), "program id " << id << " survived");
  }
}

TEST_CASE("-p PID: probes see that process, and the run ends when it exits") {
  std::string bin = sample("hello_usdt");
  // Five rounds a second apart: the tracer attaches during them, and the sample prints each
  // value after its probe fired and exits by itself, so every value traced is in its output.
  Process target({bin, "5"});
  REQUIRE(target.wait_for_output("hello_usdt pid", 10));
  Process tracer({rawprobe_path(), "-p", std::to_string(target.pid()), "-e",
                  "usdt:" + bin + ":yeet-Im-a-USDT-probe:USDT-test-probe { printf(\"arg0 %d\\n\", arg0); }"});
  RunResult t = target.finish(20);
  REQUIRE(t.status == 0);
  RunResult r = tracer.finish(20);
  INFO(r.out, r.err);
  CHECK(r.status == 0);
  std::vector<std::string> ours = lines_starting(r.out, "arg0 ");
  REQUIRE(!ours.empty());
  std::set<std::string> theirs;
  for (const std::string& l : lines_starting(t.out, "tv_sec ")) theirs.insert(l.substr(7));
  for (const std::string& l : ours) CHECK(theirs.count(l.substr(5)) == 1);
  CHECK(r.out.find("\n\n") != std::string::npos);  // the exit separator: it stopped by itself
}

TEST_CASE("-o FILE and -q: bpftrace's split between the file and the terminal") {
  char ours_path[] = "/tmp/rawprobe-out-XXXXXX", theirs_path[] = "/tmp/bpftrace-out-XXXXXX";
  close(mkstemp(ours_path));
  close(mkstemp(theirs_path));
  const std::string script = "BEGIN { printf(\"x %d\\n\", 7); @m[\"k\"] = 3; exit(); }";
  for (bool quiet : {false, true}) {
    auto args = [&](const std::string& tracer, const char* path) {
      std::vector<std::string> v{tracer, "-o", path, "-e", script};
      if (quiet) v.insert(v.begin() + 1, "-q");
      return v;
    };
    RunResult theirs = run(args("bpftrace", theirs_path));
    RunResult ours = run(args(rawprobe_path(), ours_path));
    std::string a, b;
    sys::read_text_file(ours_path, a);
    sys::read_text_file(theirs_path, b);
    CHECK(ours.status == 0);
    CHECK(a == b);
    CHECK(ours.out == theirs.out);
  }
  unlink(ours_path);
  unlink(theirs_path);
}

TEST_CASE("errors: bad usage exits 2, a bad probe exits 1 and nothing is left attached") {
  RunResult usage = run_rawprobe({"-x"});
  CHECK(usage.status == 2);
  CHECK(usage.err.find("invalid option -- 'x'") != std::string::npos);
  CHECK(run_rawprobe({}).status == 2);

  std::string fun = sample("fun");
  // The first block would attach (legacy mode: a tracefs event); the second cannot resolve.
  Process p({rawprobe_path(), "--attach-mode=legacy", "-e",
             "uprobe:" + fun + ":bar { @n = count(); } uprobe:" + fun + ":baar { @m = count(); }"});
  RunResult bad = p.finish(30);
  CHECK(bad.status == 1);
  CHECK(bad.err.find("-e:1:") != std::string::npos);
  CHECK(bad.err.find("baar") != std::string::npos);
  CHECK(bad.err.find("bar") != std::string::npos);
  CHECK(bad.out.find("Attaching") == std::string::npos);
  CHECK(!has_events_of(p.pid()));

  RunResult missing = run_rawprobe({"/nonexistent/script.bt"});
  CHECK(missing.status == 1);
  CHECK(missing.err.find("/nonexistent/script.bt") != std::string::npos);

  RunResult cmd = run_rawprobe({"-c", "/nonexistent/cmd", "-e", "BEGIN { exit(); }"});
  CHECK(cmd.status == 1);
  CHECK(cmd.err.find("/nonexistent/cmd") != std::string::npos);
}

TEST_CASE("--dry-run and the dumps load the programs but attach nothing") {
  std::string fun = sample("fun");
  std::string script = "uprobe:" + fun + ":bar { @n = count(); }";
  RunResult dry = run_rawprobe({"--dry-run", "-e", script});
  CHECK(dry.status == 0);
  CHECK(dry.out.find("Attaching") == std::string::npos);
  CHECK(dry.err.find("1 program(s) loaded") != std::string::npos);

  RunResult bpf = run_rawprobe({"-d", "-e", script});
  CHECK(bpf.status == 0);
  CHECK(bpf.out.find("; -e:1: uprobe:") != std::string::npos);
  CHECK(bpf.out.find("call bpf_map_lookup_elem#1") != std::string::npos);
  CHECK(bpf.out.find("exit") != std::string::npos);
  RunResult xlated = run_rawprobe({"--dump=xlated", "-e", script});
  CHECK(xlated.status == 0);
  CHECK(xlated.out.find("exit") != std::string::npos);
  RunResult jit = run_rawprobe({"--dump=jited-size", "-e", script});
  CHECK(jit.status == 0);
  CHECK(std::regex_search(jit.out, std::regex(": [1-9][0-9]* bytes of native code")));
  RunResult ast = run_rawprobe({"--dump=ast", "-e", script});
  CHECK(ast.status == 0);
  CHECK(ast.out.find("count") != std::string::npos);
}

TEST_CASE("--event-buffer=perf: the perf buffer fallback gives the same output as the ring buffer") {
  std::string fun = sample("fun");
  std::string script = "BEGIN { printf(\"begin %s\\n\", \"x\"); } uprobe:" + fun +
                       ":bar { printf(\"bar %d %s\\n\", 7, comm); @n[comm] = count(); } END { printf(\"end\\n\"); }";
  RunResult ring = run_rawprobe({"--event-buffer=ringbuf", "-c", fun + " 3", "-e", script});
  RunResult perf = run_rawprobe({"--event-buffer=perf", "-c", fun + " 3", "-e", script});
  INFO(perf.err);
  CHECK(ring.status == 0);
  CHECK(perf.status == 0);
  CHECK(without_fun_text(perf.out) == without_fun_text(ring.out));
  long bars = sys::ktest::reported_calls(perf.err, "bar");
  CHECK(bars > 0);
  CHECK(lines_starting(without_fun_text(perf.out), "bar 7 fun").size() == size_t(bars));
}

TEST_CASE("--event-buffer=perf: BEGIN's output comes first when events on another CPU are read first") {
  // The perf buffer is read CPU by CPU. rawprobe runs BEGIN on CPU 1, slowed there by a busier
  // process, while the command runs at once on CPU 0, so its events wait in a ring read before
  // the one holding BEGIN's output.
  REQUIRE_MESSAGE(sysconf(_SC_NPROCESSORS_ONLN) >= 2, "needs two CPUs online");
  std::string fun = sample("fun");
  std::string script = "BEGIN { printf(\"begin\\n\"); } uprobe:" + fun +
                       ":bar { printf(\"bar\\n\"); } END { printf(\"end\\n\"); }";
  // nice 10 against the busy loop's 0 slows rawprobe about tenfold, not to a stop: the
  // sanitized build still finishes a round in seconds.
  Process busy({"taskset", "-c", "1", "sh", "-c", "while :; do :; done"});
  for (int round = 0; round < 5; ++round) {
    RunResult r = run({"taskset", "-c", "1", "nice", "-n", "10", rawprobe_path(), "--event-buffer=perf", "-c",
                       "taskset -c 0 " + fun + " 1", "-e", script});
    INFO(r.out, r.err);
    CHECK(r.status == 0);
    std::vector<std::string> ours;
    for (const std::string& line : lines_starting(without_fun_text(r.out), ""))
      if (line == "begin" || line == "bar" || line == "end") ours.push_back(line);
    // Every call fun made printed, so the run had events to misplace.
    long bars = sys::ktest::reported_calls(r.err, "bar");
    CHECK(bars > 0);
    CHECK(std::count(ours.begin(), ours.end(), "bar") == bars);
    REQUIRE(!ours.empty());
    CHECK(ours.front() == "begin");
    CHECK(ours.back() == "end");
  }
}

TEST_SUITE_END();
