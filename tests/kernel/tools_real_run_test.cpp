// bpftrace 0.17's own tools (Debian's bpftrace package installs them as /usr/sbin/*.bt; read
// there, never copied) run for real and unchanged under rawprobe and under bpftrace 0.17 at the
// same time, against one workload the test starts. The two outputs must agree on everything
// that does not depend on when an event happened (pids, names, file names, counts, return
// values; not the time and latency columns), and they must report what the workload did, which
// the test knows because it chose the workload's inputs or read the workload's own output.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

using Lines = std::vector<std::string>;

// Debian's python3 itself, not a version manager's shim found first on PATH, whose chain of
// shells and execs would bury the workload's own events under its own.
const std::string python = "/usr/bin/python3";

// The outputs of both tracers over one workload run, and what the workload printed.
struct ToolRun {
  RunResult rawprobe, bpftrace, workload;
  pid_t workload_pid = -1;
};

Lines lines_of(const std::string& text);

// The "Attaching N probes..." line and every other line without a digit: the tool's title and
// column headings, which both tracers print alike whatever the events were (every event line
// holds a pid, a count or a time).
Lines headings(const std::string& out) {
  Lines lines;
  for (const std::string& line : lines_of(out))
    if (line.starts_with("Attaching ") ||
        (!line.empty() && std::none_of(line.begin(), line.end(), [](char c) { return std::isdigit((unsigned char)c); })))
      lines.push_back(line);
  return lines;
}

// Reads `tracer`'s output until its BEGIN block has printed `begin_text`: both tracers print
// "Attaching N probes..." and then run BEGIN once every probe is in, so after this line an
// event of the workload cannot be missed.
bool wait_attached(Process& tracer, const std::string& begin_text) {
  return tracer.wait_for_output("Attaching", 60) && tracer.wait_for_output(begin_text, 30);
}

// Runs /usr/sbin/TOOL.bt under rawprobe and bpftrace at once, starts `workload` once both are
// attached, waits for it to end and `linger_ms` more, then stops both tracers with SIGINT as
// Ctrl-C would. The wait lets each drain its event buffer (bpftrace 0.17 drops what is still
// queued at SIGINT, and the machine may be busy) and lets interval probes fire.
ToolRun run_tool(const std::string& tool, const std::string& begin_text, const std::vector<std::string>& workload,
                 int linger_ms = 1000) {
  ToolRun r;
  std::string file = "/usr/sbin/" + tool + ".bt";
  Process rawprobe({rawprobe_path(), file});
  Process bpftrace({"bpftrace", file});
  bool attached = wait_attached(rawprobe, begin_text);
  attached = wait_attached(bpftrace, begin_text) && attached;
  CHECK_MESSAGE(attached, tool << ": a tracer did not attach\nrawprobe:\n"
                                << rawprobe.so_far().out << rawprobe.so_far().err << "\nbpftrace:\n"
                                << bpftrace.so_far().out << bpftrace.so_far().err);
  if (attached) {
    Process work(workload);
    r.workload_pid = work.pid();
    r.workload = work.finish(60);
    std::this_thread::sleep_for(std::chrono::milliseconds(linger_ms));
  }
  rawprobe.signal(SIGINT);
  bpftrace.signal(SIGINT);
  r.rawprobe = rawprobe.finish(30);
  r.bpftrace = bpftrace.finish(30, SIGINT);
  CHECK_MESSAGE(r.rawprobe.status == 0, tool << ": rawprobe:\n" << r.rawprobe.err);
  CHECK_MESSAGE(r.bpftrace.status == 0, tool << ": bpftrace:\n" << r.bpftrace.err);
  CHECK_MESSAGE(headings(r.rawprobe.out) == headings(r.bpftrace.out), tool << ": rawprobe:\n"
                                                                       << r.rawprobe.out << "bpftrace:\n"
                                                                       << r.bpftrace.out);
  return r;
}

Lines lines_of(const std::string& text) {
  Lines lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

Lines fields_of(const std::string& line) {
  Lines fields;
  std::istringstream in(line);
  for (std::string f; in >> f;) fields.push_back(f);
  return fields;
}

// `line` with the fields in `drop` (times, latencies), each with the blanks around it (its
// padding, whichever way it is aligned), shown as " * ", and the rest kept byte for byte, so
// that the other columns' widths and padding compare too.
std::string masked(const std::string& line, const std::set<size_t>& drop) {
  std::string out;
  size_t at = 0;
  for (size_t index = 0; at < line.size(); ++index) {
    size_t start = line.find_first_not_of(" \t", at);
    if (start == std::string::npos) break;
    size_t end = std::min(line.find_first_of(" \t", start), line.size());
    if (drop.count(index)) {
      out += " * ";
      end = std::min(line.find_first_not_of(" \t", end), line.size());
    } else {
      out += line.substr(at, end - at);
    }
    at = end;
  }
  return out + line.substr(at);
}

// The lines of a tool's table whose column `key_col` reads `key`: masked as above when
// `exact`, else their fields other than `drop` joined by one space.
Lines rows_where(const std::string& out, size_t key_col, const std::string& key, std::set<size_t> drop = {},
                 bool exact = false) {
  Lines rows;
  for (const std::string& line : lines_of(out)) {
    Lines f = fields_of(line);
    if (f.size() <= key_col || f[key_col] != key) continue;
    if (exact) {
      rows.push_back(masked(line, drop));
      continue;
    }
    std::string row;
    for (size_t i = 0; i < f.size(); ++i) {
      if (drop.count(i)) continue;
      row += (row.empty() ? "" : " ") + f[i];
    }
    rows.push_back(row);
  }
  return rows;
}

std::string joined(const Lines& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  return text;
}

bool contains(const Lines& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// The rows rawprobe printed for `key`, after checking they equal bpftrace's.
Lines same_rows(const ToolRun& r, size_t key_col, const std::string& key, std::set<size_t> drop = {}) {
  Lines ours = rows_where(r.rawprobe.out, key_col, key, drop, true);
  Lines oracle = rows_where(r.bpftrace.out, key_col, key, drop, true);
  CHECK_MESSAGE(ours == oracle, "rows for " << key << " differ\nrawprobe:\n"
                                            << joined(ours) << "bpftrace:\n"
                                            << joined(oracle) << "rawprobe's stderr:\n"
                                            << r.rawprobe.err << "bpftrace's stderr:\n"
                                            << r.bpftrace.err);
  return rows_where(r.rawprobe.out, key_col, key, drop);
}

// A file this test creates, with a name no other process opens. It lives in /tmp, not in
// the build directory: the tools print paths through str(), which keeps 63 bytes, and a
// clone's build directory can be deep enough that a longer name would be cut short.
std::string unique_path(const std::string& what) {
  return "/tmp/rawprobe-tools-" + what + "-" + std::to_string(getpid());
}

std::string make_file(const std::string& what) {
  std::string path = unique_path(what);
  if (FILE* f = std::fopen(path.c_str(), "w")) std::fclose(f);
  return path;
}

std::string own_comm() {
  std::string comm = read_file("/proc/self/comm");
  return comm.substr(0, comm.find('\n'));
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("execsnoop.bt run for real reports an exec's pid and argv as bpftrace 0.17 does") {
  std::string marker = "exec-marker-" + std::to_string(getpid());
  ToolRun r = run_tool("execsnoop", "TIME(ms)", {"/bin/echo", marker, "two words"});
  std::string pid = std::to_string(r.workload_pid);
  Lines rows = same_rows(r, 1, pid, {0});
  CHECK(rows == Lines{pid + " /bin/echo " + marker + " two words"});
}

TEST_CASE("opensnoop.bt run for real reports each open's fd, errno and path as bpftrace 0.17 does") {
  std::string present = make_file("open"), missing = unique_path("open-missing");
  ToolRun r = run_tool("opensnoop", "Tracing open", {python, "-c",
                                                     "import os, sys\n"
                                                     "print(os.open(sys.argv[1], os.O_RDONLY))\n"
                                                     "try: os.open(sys.argv[2], os.O_RDONLY)\n"
                                                     "except OSError as e: print(e.errno)\n",
                                                     present, missing});
  unlink(present.c_str());
  std::string pid = std::to_string(r.workload_pid);
  Lines said = lines_of(r.workload.out);
  REQUIRE(said.size() == 2);
  Lines rows = same_rows(r, 0, pid);
  CHECK(contains(rows, pid + " python3 " + said[0] + " 0 " + present));
  CHECK(contains(rows, pid + " python3 -1 " + said[1] + " " + missing));
}

TEST_CASE("statsnoop.bt run for real reports each stat's errno and path as bpftrace 0.17 does") {
  std::string present = make_file("stat"), missing = unique_path("stat-missing");
  ToolRun r = run_tool("statsnoop", "Tracing stat", {"stat", "-c", "%n", present, missing});
  unlink(present.c_str());
  std::string pid = std::to_string(r.workload_pid);
  Lines rows = same_rows(r, 0, pid);
  CHECK(contains(rows, pid + " stat 0 " + present));
  CHECK(contains(rows, pid + " stat " + std::to_string(ENOENT) + " " + missing));
}

TEST_CASE("killsnoop.bt run for real reports each kill's signal, target and result as bpftrace 0.17 does") {
  Process target({"sleep", "60"});
  std::string tpid = std::to_string(target.pid());
  // No pid reaches 2^30 (pid_max is at most 2^22), so the second kill fails with ESRCH.
  std::string absent = std::to_string(1 << 30);
  ToolRun r = run_tool("killsnoop", "Tracing kill", {python, "-c",
                                                     "import os, sys\n"
                                                     "os.kill(int(sys.argv[1]), int(sys.argv[2]))\n"
                                                     "try: os.kill(int(sys.argv[3]), 0)\n"
                                                     "except OSError as e: print(e.errno)\n",
                                                     tpid, std::to_string(SIGUSR1), absent});
  target.finish(10);
  std::string pid = std::to_string(r.workload_pid);
  Lines rows = same_rows(r, 1, pid, {0});
  CHECK(rows == Lines{pid + " python3 " + std::to_string(SIGUSR1) + " " + tpid + " 0",
                      pid + " python3 0 " + absent + " -" + std::to_string(ESRCH)});
  CHECK(r.workload.out == std::to_string(ESRCH) + "\n");
}

TEST_CASE("setuids.bt run for real reports setuid, setresuid and setfsuid as bpftrace 0.17 does") {
  // Root drops to `nobody` last: setfsuid returns the previous fsuid, the others 0.
  ToolRun r = run_tool("setuids", "Tracing setuid", {python, "-c",
                                                     "import ctypes, os\n"
                                                     "libc = ctypes.CDLL(None)\n"
                                                     "libc.setfsuid(4321); libc.setfsuid(0)\n"
                                                     "os.setresuid(0, 0, 0)\n"
                                                     "os.setuid(65534)\n"});
  std::string pid = std::to_string(r.workload_pid);
  Lines rows = same_rows(r, 1, pid, {0});
  std::string who = pid + " python3 0 ";
  CHECK(rows == Lines{who + "setfsuid uid=4321 (prevuid=0)", who + "setfsuid uid=0 (prevuid=4321)",
                      who + "setresuid ruid=0 euid=0 suid=0 (0)", who + "setuid uid=65534 (0)"});
}

TEST_CASE("naptime.bt run for real reports nanosleep's parent and duration as bpftrace 0.17 does") {
  // nanosleep(2) itself: glibc's nanosleep() and Python's time.sleep() use clock_nanosleep.
  struct Nap {
    long sec, nsec;
  };
  std::vector<Nap> naps = {{0, 123456789}, {0, 7000000}};
  std::string code =
      "import ctypes, sys\n"
      "class TS(ctypes.Structure): _fields_ = [('s', ctypes.c_long), ('ns', ctypes.c_long)]\n"
      "libc = ctypes.CDLL(None)\n"
      "for i in range(1, len(sys.argv), 2):\n"
      "    libc.syscall(" + std::to_string(SYS_nanosleep) + ", ctypes.byref(TS(int(sys.argv[i]), int(sys.argv[i + 1]))), None)\n";
  std::vector<std::string> argv = {python, "-c", code};
  for (const Nap& n : naps) argv.insert(argv.end(), {std::to_string(n.sec), std::to_string(n.nsec)});
  ToolRun r = run_tool("naptime", "Tracing sleeps", argv);
  std::string pid = std::to_string(r.workload_pid);
  Lines rows = same_rows(r, 3, pid, {0});
  Lines expected;
  for (const Nap& n : naps) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%ld.%03ld", n.sec, n.nsec / 1000000);
    expected.push_back(std::to_string(getpid()) + " " + own_comm() + " " + pid + " python3 " + seconds);
  }
  CHECK(rows == expected);
}

TEST_CASE("gethostlatency.bt run for real reports the looked-up host as bpftrace 0.17 does") {
  ToolRun r = run_tool("gethostlatency", "Tracing getaddr", {python, "-c",
                                                             "import socket, sys\n"
                                                             "socket.getaddrinfo(sys.argv[1], 80)\n",
                                                             "localhost"});
  std::string pid = std::to_string(r.workload_pid);
  Lines rows = same_rows(r, 1, pid, {0, 3});
  CHECK(rows == Lines{pid + " python3 localhost"});
}

TEST_CASE("bashreadline.bt run for real reports the lines bash read as bpftrace 0.17 does") {
  // readline() runs only in an interactive bash on a terminal; script(1) gives it a pty.
  std::string command = "echo readline-marker-" + std::to_string(getpid());
  Lines typed = {command, "exit"};
  ToolRun r = run_tool("bashreadline", "Tracing bash",
                       {"sh", "-c", "printf '%s\\n' \"$@\" | script -qc 'bash --norc -i' /dev/null", "sh", typed[0],
                        typed[1]});
  std::string bash_pid;
  for (const std::string& line : lines_of(r.bpftrace.out))
    if (line.ends_with(" " + command) && fields_of(line).size() > 1) bash_pid = fields_of(line)[1];
  REQUIRE_MESSAGE(!bash_pid.empty(), "bpftrace saw no readline of the command:\n" << r.bpftrace.out);
  Lines rows = same_rows(r, 1, bash_pid, {0});
  CHECK(rows == Lines{bash_pid + " " + typed[0], bash_pid + " " + typed[1]});
}

TEST_CASE("syscount.bt run for real counts a process's syscalls as bpftrace 0.17 does") {
  // The workload renames itself first, so every syscall counted under its name is one that
  // both tracers, attached before it started and stopped after it ended, saw.
  std::string comm = "syscnt-" + std::to_string(getpid() % 100000);
  const int calls = 100000;
  ToolRun r = run_tool("syscount", "Counting syscalls", {python, "-c",
                                                         "import ctypes, os, sys\n"
                                                         "ctypes.CDLL(None).prctl(15, sys.argv[1].encode())\n"
                                                         "for _ in range(int(sys.argv[2])): os.getppid()\n",
                                                         comm, std::to_string(calls)});
  auto count_of = [](const std::string& out, const std::string& key) -> long {
    for (const std::string& line : lines_of(out))
      if (line.starts_with(key + ": ")) return std::stol(line.substr(key.size() + 2));
    return -1;
  };
  std::string process_key = "@process[" + comm + "]";
  long ours = count_of(r.rawprobe.out, process_key);
  CHECK_MESSAGE(ours == count_of(r.bpftrace.out, process_key), "rawprobe:\n" << r.rawprobe.out << "bpftrace:\n"
                                                                              << r.bpftrace.out);
  CHECK(ours >= calls);
  std::string syscall_key = "@syscall[" + std::to_string(SYS_getppid) + "]";
  CHECK(count_of(r.rawprobe.out, syscall_key) >= calls);
  CHECK(count_of(r.bpftrace.out, syscall_key) >= calls);
}

TEST_CASE("pidpersec.bt run for real counts a workload's forks, as bpftrace 0.17 does") {
  // The per-second counts hold every fork on the machine, so only their lower bound is the
  // workload's: its own fork by the test and one per child.
  const int children = 20;
  ToolRun r = run_tool("pidpersec", "Tracing new processes",
                       {"sh", "-c", "i=0; while [ $i -lt \"$1\" ]; do /bin/true; i=$((i+1)); done", "sh",
                        std::to_string(children)},
                       1500);
  for (const RunResult* out : {&r.rawprobe, &r.bpftrace}) {
    long total = 0;
    int ticks = 0;
    for (const std::string& line : lines_of(out->out)) {
      size_t at = line.find(" PIDs/sec: @: ");
      if (at == std::string::npos) continue;
      ++ticks;
      total += std::stol(line.substr(at + 14));
    }
    CHECK_MESSAGE(ticks >= 1, out->out);
    CHECK_MESSAGE(total >= children + 1, out->out);
  }
  // What the lines look like, each run of digits read as N: the same kinds of line in both.
  auto shapes = [](const std::string& out) {
    std::set<std::string> kinds;
    for (const std::string& line : lines_of(out)) kinds.insert(std::regex_replace(line, std::regex("[0-9]+"), "N"));
    return kinds;
  };
  CHECK_MESSAGE(shapes(r.rawprobe.out) == shapes(r.bpftrace.out), "rawprobe:\n"
                                                                     << r.rawprobe.out << "bpftrace:\n"
                                                                     << r.bpftrace.out);
}

TEST_CASE("writeback.bt run for real reports a sync's device, pages and reason as bpftrace 0.17 does") {
  std::string path = unique_path("writeback");
  ToolRun r = run_tool("writeback", "Tracing writeback",
                       {"sh", "-c", "dd if=/dev/zero of=\"$1\" bs=1M count=4 status=none && sync", "sh", path});
  struct stat st {};
  REQUIRE(stat(path.c_str(), &st) == 0);
  unlink(path.c_str());
  std::string device = std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  Lines ours = rows_where(r.rawprobe.out, 1, device, {0, 4}, true);
  Lines oracle = rows_where(r.bpftrace.out, 1, device, {0, 4}, true);
  auto synced = [](const Lines& rows) {
    Lines out;
    for (const std::string& row : rows)
      if (contains(fields_of(row), "sync")) out.push_back(row);
    return out;
  };
  CHECK_MESSAGE(!synced(ours).empty(), r.rawprobe.out);
  CHECK_MESSAGE(synced(ours) == synced(oracle), "rawprobe:\n" << r.rawprobe.out << "bpftrace:\n" << r.bpftrace.out);
}

TEST_CASE("threadsnoop.bt cannot run here: libpthread.so.0 has no pthread_create since glibc 2.34") {
  // glibc 2.34 moved pthread_create into libc.so.6; libpthread.so.0 is left with version
  // placeholders. bpftrace 0.17 silently attaches only BEGIN; rawprobe says why it cannot.
  std::string libpthread = "/lib/x86_64-linux-gnu/libpthread.so.0";
  std::string symbols = run({"nm", "-D", "--defined-only", libpthread}).out;
  REQUIRE_MESSAGE(symbols.find(" pthread_create") == std::string::npos,
                  "libpthread.so.0 defines pthread_create again: run threadsnoop.bt for real");
  CHECK(run({"nm", "-D", "--defined-only", "/lib/x86_64-linux-gnu/libc.so.6"}).out.find(" pthread_create@@") !=
        std::string::npos);
  RunResult ours = run_rawprobe({"/usr/sbin/threadsnoop.bt"}, 60);
  CHECK(ours.status != 0);
  CHECK_MESSAGE(ours.err.find("no function matches 'pthread_create' (" + libpthread + ")") != std::string::npos,
                ours.err);
  Process bpftrace({"bpftrace", "/usr/sbin/threadsnoop.bt"});
  REQUIRE(wait_attached(bpftrace, "TIME(ms)"));
  RunResult work = run({python, "-c", "import threading; t = threading.Thread(target=print); t.start(); t.join()"});
  CHECK(work.status == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  bpftrace.signal(SIGINT);
  RunResult oracle = bpftrace.finish(30, SIGINT);
  CHECK_MESSAGE(rows_where(oracle.out, 2, "python3").empty(), oracle.out);
}

TEST_SUITE_END();
