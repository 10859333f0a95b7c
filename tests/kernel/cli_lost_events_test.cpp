// "Lost N events" through the real CLI, with buffers that truly overflow: rawprobe is stopped
// (SIGSTOP) while this thread makes a known number of getppid() calls, each of which the
// script turns into one printf record. The ring (256 KiB) or the perf rings (64 pages per CPU)
// fill up and refuse the rest. After SIGCONT every call must be accounted for: the records
// printed plus the losses reported equal the calls made.
// The programs count every refused output (bpf_ringbuf_output / bpf_perf_event_output < 0)
// in `.lost`, and the runtime prints the growth after draining. A perf buffer's own
// PERF_RECORD_LOST comes only with the next record that fits in that CPU's ring (bpftrace
// 0.17, which counts only those, prints nothing here); on a kernel before 5.4, where the
// program is not told, a few more calls bring it.
#include <doctest/doctest.h>

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <fstream>
#include <regex>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/printed_count.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// More records than either buffer holds: 256 KiB hold 16384 16-byte ring records.
constexpr long kCalls = 200000;

bool stopped(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  size_t paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'T';
}

long count_lines(const std::string& text, const std::string& line) {
  long n = 0;
  for (size_t at = 0; (at = text.find(line + "\n", at)) != std::string::npos; at += line.size() + 1)
    if (at == 0 || text[at - 1] == '\n') ++n;
  return n;
}

// Keeps this thread on one CPU, so a perf buffer's losses are all in one ring and the calls
// made afterwards write to that same ring.
struct PinnedToOneCpu {
  cpu_set_t saved;
  PinnedToOneCpu() {
    sched_getaffinity(0, sizeof saved, &saved);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(sched_getcpu(), &one);
    sched_setaffinity(0, sizeof one, &one);
  }
  ~PinnedToOneCpu() { sched_setaffinity(0, sizeof saved, &saved); }
};

// Makes one traced call a second (at most a minute) until `text` is in the output; counts them.
bool call_until(Process& p, const std::string& text, long& calls) {
  for (int i = 0; i < 60; ++i) {
    syscall(SYS_getppid);
    ++calls;
    if (p.wait_for_output(text, 1)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a full event buffer: records printed plus 'Lost N events' equal the events made") {
  PinnedToOneCpu pin;
  std::string script = "tracepoint:syscalls:sys_enter_getppid /tid == " + std::to_string(gettid()) +
                       "/ { printf(\"x\\n\"); }";
  for (const char* buffer : {"ringbuf", "perf"}) {
    CAPTURE(buffer);
    Process p({rawprobe_path(), std::string("--event-buffer=") + buffer, "-e", script});
    REQUIRE(p.wait_for_output("Attaching 1 probe...\n", 30));
    // "Attaching" is printed before the attach: call until a record shows the probe is on.
    // Calls before that one may have come before the attach; that one is the first traced.
    long warm_up = 0;
    REQUIRE(call_until(p, "x\n", warm_up));
    long calls = 1;
    p.signal(SIGSTOP);
    for (int i = 0; i < 500 && !stopped(p.pid()); ++i) usleep(10000);
    REQUIRE(stopped(p.pid()));
    for (long i = 0; i < kCalls; ++i) syscall(SYS_getppid);
    calls += kCalls;
    p.signal(SIGCONT);
    bool reported = p.wait_for_output("Lost ", 30) || call_until(p, "Lost ", calls);
    CHECK(reported);
    p.signal(SIGINT);
    RunResult r = p.finish(30);
    INFO(r.err);
    CHECK(r.status == 0);
    long printed = count_lines(r.out, "x"), lost = reported_losses(r.out);
    INFO("printed ", printed, ", lost ", lost, ", calls ", calls);
    CHECK(printed > 0);
    CHECK(lost > 0);
    CHECK(printed + lost == calls);
  }
}
