// fentry/fexit and iter through the real CLI on this machine's kernel. Whether this kernel
// lets a BPF trampoline attach is asked of the kernel itself first (a minimal tracing program
// loaded and linked with raw bpf() calls): rawprobe must then either trace (the counts equal
// what samples/open_read reports) or refuse with the kernel's errno and a hint naming the
// cause and what works instead. Iterators are checked against /proc.
#include <doctest/doctest.h>

#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "engine/btf/kernel_types.h"
#include "tests/kernel/cli_run.h"
#include "tests/kernel/proc_pids.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// The kernel's own answer to a fentry program on `func`: 0 when both BPF_PROG_LOAD and
// BPF_LINK_CREATE succeed, else the errno of the first that failed. Raw syscalls, not
// engine/sys, so the oracle does not share the code under test.
int kernel_answer_to_fentry(const std::string& func) {
  Result<btf::KernelTypes> kernel = btf::KernelTypes::open();
  REQUIRE(kernel.ok());
  Result<btf::KernelFunction> f = kernel->function(func);
  REQUIRE(f.ok());
  struct bpf_insn prog[2] = {};
  prog[0].code = BPF_ALU64 | BPF_MOV | BPF_K;  // r0 = 0
  prog[1].code = BPF_JMP | BPF_EXIT;
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.prog_type = BPF_PROG_TYPE_TRACING;
  attr.expected_attach_type = BPF_TRACE_FENTRY;
  attr.attach_btf_id = f->btf_id;
  attr.insn_cnt = 2;
  attr.insns = reinterpret_cast<uintptr_t>(prog);
  attr.license = reinterpret_cast<uintptr_t>("GPL");
  int prog_fd = static_cast<int>(syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof attr));
  if (prog_fd < 0) return errno;
  std::memset(&attr, 0, sizeof attr);
  attr.link_create.prog_fd = static_cast<uint32_t>(prog_fd);
  attr.link_create.attach_type = BPF_TRACE_FENTRY;
  int link = static_cast<int>(syscall(SYS_bpf, BPF_LINK_CREATE, &attr, sizeof attr));
  int err = link < 0 ? errno : 0;
  if (link >= 0) close(link);
  close(prog_fd);
  return err;
}

long report_value(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key + " ", 0) == 0) return std::stol(line.substr(key.size() + 1));
  return -1;
}


// The id of FUNC NAME's prototype in `bpftool btf dump file` text, "" when it is not there.
// A plain search: std::regex over the whole dump (tens of MB) took 40 to 120 s a case.
std::string func_proto_id(const std::string& dump, const std::string& name) {
  const std::string func = "] FUNC '" + name + "' type_id=";
  size_t at = dump.find(func);
  if (at == std::string::npos) return "";
  at += func.size();
  return dump.substr(at, dump.find_first_not_of("0123456789", at) - at);
}

}  // namespace

TEST_CASE("fentry/fexit on vfs_read trace when the kernel lets a trampoline attach, else refuse saying why") {
  std::string open_read = sample("open_read");
  const std::vector<std::string> args = {
      "-e", "fentry:vfs_read /comm == \"open_read\"/ { @calls = count(); @asked = sum(args.count); } "
            "fexit:vfs_read /comm == \"open_read\"/ { @bytes = sum(retval); }",
      "-c", open_read + " 3"};
  if (!kernel_btf_present()) return check_refused_without_btf(args);
  int answer = kernel_answer_to_fentry("vfs_read");
  RunResult r = run_rawprobe(args);
  INFO("kernel's answer: ", answer ? errno_name(answer) : "accepted", "\n", r.out, r.err);
  if (answer == 0) {
    CHECK(r.status == 0);
    long reads = report_value(r.out, "reads"), bytes = report_value(r.out, "bytes");
    CHECK(r.out.find("@calls: " + std::to_string(reads) + "\n") != std::string::npos);
    CHECK(r.out.find("@bytes: " + std::to_string(bytes) + "\n") != std::string::npos);
    CHECK(r.out.find("@asked: " + std::to_string(bytes) + "\n") != std::string::npos);
    return;
  }
  CHECK(r.status != 0);
  // The kernel's errno, named as rawprobe names errnos, and the cause.
  CHECK(r.err.find(errno_name(answer)) != std::string::npos);
  if (answer == EPERM) {
    bool locked = !read_file("/sys/kernel/security/lockdown").empty() &&
                  read_file("/sys/kernel/security/lockdown").find("[none]") == std::string::npos;
    CHECK(r.err.find(locked ? "locked down" : "a local policy forbids BPF trampolines") != std::string::npos);
    // What works instead: this kernel's other ways into kernel code.
    bool kprobes = std::filesystem::exists("/sys/bus/event_source/devices/kprobe") ||
                   std::filesystem::exists("/sys/kernel/tracing/kprobe_events");
    CHECK(r.err.find(kprobes ? "kprobe:FUNC" : "tracepoints (-l 'tracepoint:*')") != std::string::npos);
  }
}

TEST_CASE("a fentry refusal leaves nothing attached and names the probe; --trace-syscalls decodes the tracing load") {
  if (!kernel_btf_present()) return check_refused_without_btf({"-e", "fentry:vfs_read { @ = count(); } BEGIN { exit(); }"});
  int answer = kernel_answer_to_fentry("vfs_read");
  RunResult r = run_rawprobe({"--trace-syscalls", "-e", "fentry:vfs_read { @ = count(); } BEGIN { exit(); }"});
  INFO(r.out, r.err);
  static const std::regex load(R"(bpf\(BPF_PROG_LOAD, \{prog_type=BPF_PROG_TYPE_TRACING, .*expected_attach_type=BPF_TRACE_FENTRY, attach_btf_id=[1-9][0-9]*.*\) = )");
  CHECK(std::regex_search(r.err, load));
  CHECK((r.status == 0) == (answer == 0));
}

TEST_CASE("iter:task prints each thread-group leader once, as /proc lists them, and ends by itself") {
  const std::vector<std::string> args = {"-q", "-e",
                                         "iter:task /ctx->task->pid == ctx->task->tgid/ { printf(\"%d\\n\", ctx->task->pid); }"};
  if (!kernel_btf_present()) return check_refused_without_btf(args);
  std::set<long> before = proc_pids();
  RunResult r = run_rawprobe(args, 60);
  std::set<long> after = proc_pids();
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::multiset<long> listed;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) listed.insert(std::stol(line));
  std::set<long> unique(listed.begin(), listed.end());
  CHECK(unique.size() == listed.size());
  for (long pid : before)
    if (after.count(pid)) CHECK_MESSAGE(unique.count(pid), "pid " << pid << " is in /proc but not listed");
  size_t extra = 0;
  for (long pid : unique) extra += !before.count(pid) && !after.count(pid);
  CHECK(extra <= 1);  // rawprobe itself, alive only during the iteration
  CHECK(unique.size() >= before.size() / 2);
}

// The fds of this process (the directory iterator's own fd included; it is gone after).
std::set<long> own_fds() {
  std::set<long> fds;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) fds.insert(std::stol(e.path().filename()));
  return fds;
}

TEST_CASE("iter:task_file: --trace-syscalls shows the iterator's load, link and BPF_ITER_CREATE; fds are the process's") {
  const std::vector<std::string> args = {"--trace-syscalls", "-q", "-e",
                                         "iter:task_file /ctx->task->pid == " + std::to_string(getpid()) +
                                             "/ { printf(\"%d\\n\", ctx->fd); }"};
  if (!kernel_btf_present()) return check_refused_without_btf(args);
  std::set<long> before = own_fds();
  RunResult r = run_rawprobe(args);
  std::set<long> after = own_fds();
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  CHECK(std::regex_search(r.err, std::regex(R"(bpf\(BPF_PROG_LOAD, .*expected_attach_type=BPF_TRACE_ITER, attach_btf_id=[1-9][0-9]*.*\) = [0-9]+)")));
  CHECK(std::regex_search(r.err, std::regex(R"(bpf\(BPF_LINK_CREATE, .*attach_type=BPF_TRACE_ITER.*\) = [0-9]+)")));
  CHECK(std::regex_search(r.err, std::regex(R"(bpf\(BPF_ITER_CREATE, \{link_fd=[0-9]+\}.*\) = [0-9]+)")));
  std::set<long> got;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) got.insert(std::stol(line));
  // Open before and after the run, so open during it (the run's own pipes come and go).
  for (long fd : before)
    if (after.count(fd)) CHECK_MESSAGE(got.count(fd), "fd " << fd << " is open in /proc/self/fd but not listed");
}

TEST_SUITE("host-only") {
TEST_CASE("-lv iter:* lists the iterators bpftrace 0.17 lists, with the same context members") {
  RunResult oracle = run({"bpftrace", "-lv", "iter:*"});
  REQUIRE(oracle.status == 0);
  RunResult ours = run_rawprobe({"-lv", "iter:*"});
  INFO(oracle.out, ours.out, ours.err);
  REQUIRE(ours.status == 0);
  // bpftrace 0.17 knows task and task_file from a table of its own, where task_file's fd is
  // an `int`; rawprobe reads the kernel's struct bpf_iter__task_file, where it is a u32. The
  // probe names and the member names must agree, pointer members verbatim.
  auto blocks_of = [](const std::string& text) {
    std::map<std::string, std::vector<std::string>> blocks;
    std::istringstream in(text);
    std::string line, current;
    while (std::getline(in, line)) {
      if (line.rfind("iter:", 0) == 0) current = line, blocks[current];
      else if (!current.empty()) blocks[current].push_back(line);
    }
    return blocks;
  };
  auto theirs = blocks_of(oracle.out), mine = blocks_of(ours.out);
  REQUIRE(!theirs.empty());
  for (const auto& [name, members] : theirs) {
    INFO(name);
    REQUIRE(mine.count(name));
    REQUIRE(mine[name].size() == members.size());
    for (size_t i = 0; i < members.size(); ++i) {
      std::string want = members[i], got = mine[name][i];
      CHECK(got.substr(got.rfind(' ')) == want.substr(want.rfind(' ')));
      if (want.find('*') != std::string::npos) CHECK(got == want);
    }
  }
}

TEST_CASE("-lv fentry:vfs_read names the parameters bpftool's BTF dump gives, with the return type last") {
  RunResult dump = run({"bpftool", "btf", "dump", "file", "/sys/kernel/btf/vmlinux"}, 120);
  REQUIRE(dump.status == 0);
  std::string proto_id = func_proto_id(dump.out, "vfs_read");
  REQUIRE(!proto_id.empty());
  size_t at = dump.out.find("\n[" + proto_id + "] FUNC_PROTO");
  REQUIRE(at != std::string::npos);
  std::vector<std::string> want;
  std::istringstream in(dump.out.substr(at + 1));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line) && line.rfind("\t'", 0) == 0) want.push_back(line.substr(2, line.find('\'', 2) - 2));
  RunResult ours = run_rawprobe({"-lv", "fentry:vfs_read"});
  INFO(ours.out, ours.err);
  REQUIRE(ours.status == 0);
  std::vector<std::string> lines;
  std::istringstream o(ours.out);
  while (std::getline(o, line)) lines.push_back(line);
  REQUIRE(lines.size() == want.size() + 2);
  CHECK(lines[0] == "fentry:vmlinux:vfs_read");
  for (size_t i = 0; i < want.size(); ++i) CHECK(lines[i + 1].substr(lines[i + 1].rfind(' ') + 1) == want[i]);
  CHECK(lines.back().size() > 11);
  CHECK(lines.back().substr(lines.back().size() - 7) == " retval");
}
}

TEST_CASE("watchpoint:ADDR:SIZE:w counts the writes samples/watch_writes reports, beyond those of its exec") {
  // The address and size of its long: the sample's own report (built -no-pie, so the address
  // is the same in every run; the size is 8, or 4 on 32-bit arm).
  std::string ww = sample("watch_writes");
  RunResult where = run({ww, "0"});
  REQUIRE(where.status == 0);
  std::string addr = where.out.substr(5, where.out.find('\n') - 5);
  const std::string size = std::to_string(report_value(where.out, "size"));
  REQUIRE(static_cast<long>(sizeof(long)) == report_value(where.out, "size"));
  if (checked_arm_watchpoint_refusal(
          run_rawprobe({"-c", ww + " 1", "-e", "watchpoint:" + addr + ":" + size + ":w { @writes = count(); }"})))
    return;
  auto writes_seen = [&](int n) {
    RunResult r = run_rawprobe({"-c", ww + " " + std::to_string(n), "-e",
                                "watchpoint:" + addr + ":" + size + ":w { @writes = count(); }"});
    INFO(r.out, r.err);
    REQUIRE(r.status == 0);
    CHECK(report_value(r.out, "writes") == n);
    size_t at = r.out.find("@writes: ");
    REQUIRE(at != std::string::npos);
    return std::stol(r.out.substr(at + 9));
  };
  // exec itself writes the page the variable is in (the kernel zeroes .bss): counted in both
  // runs alike, so the difference is the sample's own writes.
  long none = writes_seen(0), many = writes_seen(1000);
  CHECK(many - none == 1000);
}

TEST_CASE("watchpoint limits are refused before anything attaches, naming the rule") {
  struct Case {
    std::string spec, says;
  } cases[] = {
      {"watchpoint:0x1001:8:w", "is not a multiple of its length 8"},
      {"watchpoint:0x1000:3:w", "length 3 is not one the hardware watches: 1, 2, 4 or 8"},
      {"watchpoint:0x1000:8:wx", "mixes x with r or w"},
      // An instruction address is a long's size: 8 bytes, 4 on 32-bit arm.
      {"watchpoint:0x1000:" + std::string(sizeof(long) == 8 ? "4" : "8") + ":x",
       "an execute watchpoint (x) takes length " + std::to_string(sizeof(long))},
      {"watchpoint:0x1000:8:q", "is not one of r, w, x, rw"},
  };
  for (const Case& c : cases) {
    RunResult r = run_rawprobe({"--trace-syscalls", "-c", "/bin/true", "-e", c.spec + " { @ = count(); }"});
    INFO(c.spec, r.err);
    CHECK(r.status != 0);
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(r.err.find("perf_event_open(") == std::string::npos);
  }
  RunResult r = run_rawprobe({"-e", "watchpoint:0x1000:8:w { @ = count(); }"});
  CHECK(r.status != 0);
  CHECK(r.err.find("watchpoint needs a process: run with -p PID or -c CMD") != std::string::npos);
}

TEST_CASE("rawtracepoint args.NAME are typed from btf_trace_NAME: sys_enter's args.id is arg1 and its regs' syscall number") {
  std::string open_read = sample("open_read");
  // struct pt_regs keeps the system call's number in orig_ax on x86_64, syscallno on arm64.
#if defined(__aarch64__)
  const std::string number_field = "syscallno";
#else
  const std::string number_field = "orig_ax";
#endif
  const std::vector<std::string> args = {"-c", open_read + " 3", "-e",
                                         "rawtracepoint:sys_enter /comm == \"open_read\"/ { @by_args[args.id] = count(); "
                                         "@by_arg1[arg1] = count(); @by_regs[args.regs->" + number_field + "] = count(); }"};
  if (!kernel_btf_present()) return check_refused_without_btf(args);
  RunResult r = run_rawprobe(args);
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  auto entries = [&](const std::string& map) {
    std::vector<std::string> out;
    std::istringstream in(r.out);
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("@" + map + "[", 0) == 0) out.push_back(line.substr(map.size() + 1));
    return out;
  };
  std::vector<std::string> by_args = entries("by_args");
  CHECK(by_args.size() >= 3);  // at least openat, read, write, exit_group
  CHECK(by_args == entries("by_arg1"));
  CHECK(by_args == entries("by_regs"));
}

TEST_CASE("-lv rawtracepoint:sched_switch names the arguments bpftool shows for __bpf_trace_sched_switch" *
          doctest::test_suite("host-only")) {
  RunResult dump = run({"bpftool", "btf", "dump", "file", "/sys/kernel/btf/vmlinux"}, 120);
  REQUIRE(dump.status == 0);
  std::string proto_id = func_proto_id(dump.out, "__bpf_trace_sched_switch");
  REQUIRE(!proto_id.empty());
  size_t at = dump.out.find("\n[" + proto_id + "] FUNC_PROTO");
  REQUIRE(at != std::string::npos);
  std::istringstream in(dump.out.substr(at + 1));
  std::string line, want = "rawtracepoint:sched_switch\n";
  std::getline(in, line);
  std::getline(in, line);  // void *__data, which the kernel passes its own probes
  while (std::getline(in, line) && line.rfind("\t'", 0) == 0) want += line.substr(2, line.find('\'', 2) - 2) + "\n";
  RunResult list = run_rawprobe({"-lv", "rawtracepoint:sched_switch"});
  std::string got;
  std::istringstream o(list.out);
  while (std::getline(o, line)) got += (line.rfind("    ", 0) == 0 ? line.substr(line.rfind(' ') + 1) : line) + "\n";
  CHECK(got == want);
}
