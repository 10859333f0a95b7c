// More of bpftrace 0.26.1's standard library (docs/stdlib.md), run for real: signal_thread()
// signals the thread at hand, signal_name() names the number the kernel records, and fail()
// stops a script when it is checked. The expected values come from the sample's own report
// (samples/thread_signals.c: which thread called getppid, which one ran the handler) and from
// the C library's strsignal(3), whose texts bpftrace's signal_name() table copies.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <signal.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

struct SampleReport {
  long worker = -1, handled_by = -1, handled = -1;
};

SampleReport sample_report(const std::string& out) {
  std::smatch m;
  SampleReport r;
  static const std::regex line("thread_signals worker=([0-9]+) handled_by=([0-9]+) handled=([0-9]+)");
  if (std::regex_search(out, m, line)) r = {std::stol(m[1]), std::stol(m[2]), std::stol(m[3])};
  return r;
}

// The first number after `key` on a line that starts with it, or -1.
long number_after(const std::string& out, const std::string& key) {
  size_t at = out.find("\n" + key);
  if (at == std::string::npos) return -1;
  return std::stol(out.substr(at + 1 + key.size()));
}

}  // namespace

TEST_CASE("signal_thread sends to the thread that made the call, and signal_name names what arrived") {
  // The worker thread's getppid gets SIGUSR1 through bpf_send_signal_thread; the kernel's
  // signal:signal_deliver tracepoint shows the thread that takes it and the number it carries.
  std::string script =
      "tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { printf(\"sent %d\\n\", tid); signal_thread(\"USR1\"); }"
      " tracepoint:signal:signal_deliver /pid == cpid/ { printf(\"delivered %d %d %s\\n\", tid, args.sig,"
      " signal_name(args.sig)); }";
  RunResult r = run_rawprobe({"--unsafe", "-c", sample("thread_signals"), "-e", script});
  INFO(r.out);
  INFO(r.err);
  REQUIRE(r.status == 0);
  SampleReport report = sample_report(r.out);
  REQUIRE(report.worker > 0);
  // The handler ran once, in the worker, which is not the process's main thread.
  CHECK(report.handled == 1);
  CHECK(report.handled_by == report.worker);
  CHECK(number_after(r.out, "sent ") == report.worker);
  std::string delivered = "delivered " + std::to_string(report.worker) + " " + std::to_string(SIGUSR1) + " " +
                          strsignal(SIGUSR1) + "\n";
  CHECK(r.out.find(delivered) != std::string::npos);
}

TEST_CASE("signal_thread needs --unsafe and a probe that runs in the traced task, as signal() does") {
  RunResult safe = run_rawprobe({"-e", "tracepoint:syscalls:sys_enter_getppid { signal_thread(10); }"});
  CHECK(safe.status != 0);
  CHECK(safe.err.find("signal_thread() is an unsafe function being used in safe mode") != std::string::npos);
  RunResult begin = run_rawprobe({"--unsafe", "-e", "BEGIN { signal_thread(\"USR1\"); }"});
  CHECK(begin.status != 0);
  CHECK(begin.err.find("signal_thread can not be used with \"BEGIN\" probes") != std::string::npos);
  RunResult bad = run_rawprobe({"--unsafe", "-e", "tracepoint:syscalls:sys_enter_getppid { signal_thread(\"SIGFOO\"); }"});
  CHECK(bad.status != 0);
  CHECK(bad.err.find("SIGFOO is not a valid signal") != std::string::npos);
}

TEST_CASE("signal_name gives strsignal's text for 0 to 64 and N/A past them, as bpftrace 0.26.1's table") {
  // Each number is the script's input; the C library's strsignal(3) is the oracle for the
  // numbers bpftrace's table covers (0..64), "N/A" its text for the others.
  const std::vector<int> numbers = {0, 1, 2, 9, 15, 31, 32, 34, 64, 65, 200};
  std::string script = "BEGIN {";
  for (int n : numbers) script += " printf(\"%s|\\n\", signal_name(" + std::to_string(n) + "));";
  script += " print(signal_name(-1)); exit(); }";
  RunResult r = run_rawprobe({"-e", script});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::string expected = "Attaching 1 probe...\n";
  for (int n : numbers) expected += std::string(n <= 64 ? strsignal(n) : "N/A") + "|\n";
  expected += "N/A\n";
  CHECK(r.out.substr(0, expected.size()) == expected);
}

TEST_CASE("fail() stops the script with its formatted message where it is reached") {
  // The branch is left out when the condition, known when the script is checked, is false.
  std::string script = "BEGIN { if ($1 < 2) { fail(\"Expected the first positional param to be greater than 1."
                       " Got %d\", $1); } printf(\"ran with %d\\n\", $1); exit(); }";
  for (int given : {1, 5}) {
    CAPTURE(given);
    RunResult r = run_rawprobe({"-e", script, std::to_string(given)});
    if (given < 2) {
      CHECK(r.status == 1);
      CHECK(r.err.find("-e:1:23: error: Expected the first positional param to be greater than 1. Got " +
                       std::to_string(given)) != std::string::npos);
      CHECK(r.out.find("Attaching") == std::string::npos);
    } else {
      CHECK(r.status == 0);
      CHECK(r.out.find("ran with " + std::to_string(given) + "\n") != std::string::npos);
    }
  }
}

// The kernel's version decides what comm(pid) can do in a tracepoint: bpf_task_from_pid came
// in 6.2 (kernel commit 3f0e6f2b41d3), tracepoint programs may call it from 6.12 (bc638d8cb5be).
int kernel_version_code() {
  struct utsname u;
  REQUIRE(uname(&u) == 0);
  int major = 0, minor = 0;
  REQUIRE(std::sscanf(u.release, "%d.%d", &major, &minor) == 2);
  return major * 100 + minor;
}

TEST_CASE("comm(pid) reads the comm of the task with that pid, through bpf_task_from_pid") {
  // The names are the programs' own: the traced sample's file name and rawprobe's, each cut
  // to TASK_COMM_LEN - 1 bytes as the kernel keeps it; pid_max is a pid no task can have.
  std::ifstream pid_max_file("/proc/sys/kernel/pid_max");
  long pid_max = 0;
  pid_max_file >> pid_max;
  REQUIRE(pid_max > 0);
  std::string script = "tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { printf(\"names %s|%s|%s|%s| %s\\n\","
                       " comm(pid), comm(tid), comm(ppid), comm(" +
                       std::to_string(pid_max) + "), kfunc_allowed(\"bpf_task_from_pid\")); }";
  // Programs call kfuncs through the kernel's BTF.
  if (!kernel_btf_present()) return check_refused_without_btf({"-c", sample("thread_signals"), "-e", script});
  RunResult r = run_rawprobe({"-c", sample("thread_signals"), "-e", script});
  INFO(r.out);
  INFO(r.err);
  int version = kernel_version_code();
  if (version < 602) {
    CHECK(r.status == 1);
    CHECK(r.err.find("comm(pid) needs the kernel's bpf_task_from_pid and bpf_task_release kfuncs (Linux 6.2)") !=
          std::string::npos);
    return;
  }
  if (version < 612) {  // the verifier refuses the call in a tracepoint program
    CHECK(r.status != 0);
    CHECK(r.err.find("calling kernel function bpf_task_from_pid is not allowed") != std::string::npos);
    return;
  }
  REQUIRE(r.status == 0);
  auto comm_of = [](const std::string& path) { return path.substr(path.rfind('/') + 1).substr(0, 15); };
  std::string sample_comm = comm_of(sample("thread_signals"));
  std::string expected = "names " + sample_comm + "|" + sample_comm + "|" + comm_of(rawprobe_path()) + "|| true\n";
  CHECK(r.out.find(expected) != std::string::npos);
}

TEST_CASE("kfunc_allowed answers for the block's program type, as the verifier does") {
  // BEGIN is a uprobe: kprobe programs may not call bpf_task_from_pid on any kernel; an
  // interval probe's perf_event program may from 6.12 (where the kfunc exists at all).
  RunResult r = run_rawprobe({"-e", "BEGIN { printf(\"begin %s\\n\", kfunc_allowed(\"bpf_task_from_pid\")); }"
                                    " interval:ms:10 { printf(\"interval %s\\n\", kfunc_allowed(\"bpf_task_from_pid\"));"
                                    " exit(); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("begin false\n") != std::string::npos);
  // Without the kernel's BTF no program can name a kfunc at all.
  std::string interval = kernel_version_code() >= 612 && kernel_btf_present() ? "interval true\n" : "interval false\n";
  CHECK(r.out.find(interval) != std::string::npos);
}

TEST_CASE("comm(pid) is refused in probes whose programs may not call the kfunc") {
  RunResult r = run_rawprobe({"-c", sample("thread_signals"), "-e",
                              "uprobe:" + sample("thread_signals") + ":worker { printf(\"%s\\n\", comm(pid)); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("error: comm(pid) works in tracepoint, profile, interval, software, fentry, fexit and iter probes") !=
        std::string::npos);
  CHECK(r.err.find("not in uprobe probes") != std::string::npos);
}

TEST_CASE("array casts give an integer's bytes as an array and back, as bpftrace 0.26.1's docs/language.md") {
  // The expected bytes are the value's own, as this machine lays it out; pton's bytes are
  // inet_pton's. A uint32 of 0 and 1 bytes makes bools.
  const uint64_t value = 0x1122334455667788ull ^ static_cast<uint64_t>(getpid());
  const uint32_t flags = 0x01000101;
  uint8_t bytes[8], flag_bytes[4], loopback[4];
  std::memcpy(bytes, &value, 8);
  std::memcpy(flag_bytes, &flags, 4);
  REQUIRE(inet_pton(AF_INET, "127.0.0.1", loopback) == 1);
  uint32_t loopback_int;
  std::memcpy(&loopback_int, loopback, 4);
  std::string script = "BEGIN { $a = (uint8[8])" + std::to_string(value) +
                       "; print($a); printf(\"%u %u\\n\", $a[0], $a[7]); printf(\"%lu\\n\", (uint64)$a);"
                       " print((bool[])(uint32)" + std::to_string(flags) +
                       "); printf(\"%u\\n\", (uint32)pton(\"127.0.0.1\")); exit(); }";
  RunResult r = run_rawprobe({"-e", script});
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto list = [](const uint8_t* p, size_t n) {
    std::string text = "[";
    for (size_t i = 0; i < n; ++i) text += (i ? "," : "") + std::to_string(p[i]);
    return text + "]";
  };
  std::string expected = "Attaching 1 probe...\n" + list(bytes, 8) + "\n" + std::to_string(bytes[0]) + " " +
                         std::to_string(bytes[7]) + "\n" + std::to_string(value) + "\n" + list(flag_bytes, 4) + "\n" +
                         std::to_string(loopback_int) + "\n";
  CHECK(r.out.substr(0, expected.size()) == expected);
}

TEST_SUITE_BEGIN("host-only");

TEST_CASE("default_str_length is the script's max_strlen; kfunc_exist answers as bpftool's BTF dump") {
  // bpftool lists the kernel's BTF functions: the oracle for which names exist.
  RunResult dump = run({"bpftool", "btf", "dump", "file", "/sys/kernel/btf/vmlinux"});
  REQUIRE(dump.status == 0);
  auto in_btf = [&](const std::string& name) { return dump.out.find("FUNC '" + name + "' ") != std::string::npos; };
  std::vector<std::string> names = {"bpf_task_from_pid", "bpf_task_release", "bpf_no_such_kfunc_here"};
  const int max_strlen = 100;
  std::string script = "config = { max_strlen = " + std::to_string(max_strlen) + " } BEGIN { printf(\"%d";
  for (size_t i = 0; i < names.size(); ++i) script += " %d";
  script += "\\n\", default_str_length";
  for (const std::string& n : names) script += ", kfunc_exist(\"" + n + "\")";
  script += "); exit(); }";
  RunResult r = run_rawprobe({"-e", script});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::string expected = std::to_string(max_strlen);
  for (const std::string& n : names) expected += in_btf(n) ? " 1" : " 0";
  CHECK(r.out.find(expected + "\n") != std::string::npos);
}

TEST_SUITE_END();
