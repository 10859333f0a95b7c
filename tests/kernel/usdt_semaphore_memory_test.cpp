// USDT semaphores on kernels without ref_ctr_offset (before 4.20): rawprobe sets them in the
// traced process's memory through /proc/PID/mem. This kernel has ref_ctr_offset, so the old
// kernel's path is taken with RAWPROBE_PRETEND_MISSING=uprobe_ref_ctr,uprobe_multi, and its
// counts are checked against the same run through the kernel's own semaphore counting.
//
// Python only reaches its gc__start site while the semaphore is set: the count of the
// script's own gc.collect(1) calls proves the semaphore was written in time.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

#include "tests/kernel/cli_run.h"

namespace rawprobe::cli_test {
namespace {

const std::string kPython = "/usr/bin/python3.11";
// gc__start's argument is the generation collected; Python collects generation 1 on its own
// only under allocation pressure these few lines never reach, so the count is the script's.
constexpr int kCollections = 7;
const std::string kCalls = "import gc\nfor i in range(" + std::to_string(kCollections) + "): gc.collect(1)";
const std::string kScript = "usdt:" + kPython + ":python:gc__start /arg0 == 1/ { @ = count(); }";

// The environment variable set only while `body` runs (these tests run one at a time).
template <typename Body>
auto with_missing(const char* features, Body body) {
  ::setenv("RAWPROBE_PRETEND_MISSING", features, 1);
  auto result = body();
  ::unsetenv("RAWPROBE_PRETEND_MISSING");
  return result;
}

constexpr const char* kOldKernel = "uprobe_ref_ctr,uprobe_multi";

// "@: N" of a run's output, -1 without one.
long count_of(const RunResult& r) {
  size_t at = r.out.find("\n@: ");
  return at == std::string::npos ? -1 : std::atol(r.out.c_str() + at + 4);
}

std::string quoted_calls() { return kPython + " -c '" + kCalls + "'"; }

}  // namespace

TEST_SUITE_BEGIN("host-only");  // python3.11 is on the build host, not in the VM guest

TEST_CASE("usdt semaphore in /proc/PID/mem: -c counts every call, as the kernel's ref_ctr_offset does") {
  REQUIRE(::access(kPython.c_str(), X_OK) == 0);
  RunResult kernel = run_rawprobe({"-c", quoted_calls(), "-e", kScript});
  INFO("kernel path: ", kernel.out, kernel.err);
  REQUIRE(kernel.status == 0);
  long expected = count_of(kernel);
  REQUIRE(expected == kCollections);

  RunResult memory = with_missing(kOldKernel, [&] {
    return run_rawprobe({"--trace-syscalls", "-c", quoted_calls(), "-e", kScript});
  });
  INFO("memory path: ", memory.out, memory.err);
  CHECK(memory.status == 0);
  CHECK(count_of(memory) == expected);
  // The old kernel's attach: a uprobe perf event without ref_ctr_offset, no uprobe_multi link
  // (each given the binary as the descriptor rawprobe inspected it through).
  CHECK(memory.err.find("ref_ctr_offset=0x0, config1=\"/proc/self/fd/") != std::string::npos);
  CHECK(memory.err.find("BPF_TRACE_UPROBE_MULTI, flags=0x0, uprobe_multi.path=\"/proc/self/fd/") ==
        std::string::npos);
}

TEST_CASE("usdt semaphore in /proc/PID/mem: -c waits through a wrapper's exec for the binary") {
  // A wrapper that execs the traced binary, as pyenv shims and many launchers do: the
  // semaphore is only mapped after the second exec.
  const std::string wrapper = "/tmp/rawprobe-semaphore-wrapper.sh";
  {
    std::ofstream w(wrapper);
    w << "#!/bin/sh\nexec " << kPython << " \"$@\"\n";
  }
  REQUIRE(::chmod(wrapper.c_str(), 0755) == 0);
  const std::string command = wrapper + " -c '" + kCalls + "'";
  RunResult memory = with_missing(kOldKernel, [&] { return run_rawprobe({"-c", command, "-e", kScript}); });
  INFO(memory.out, memory.err);
  CHECK(memory.status == 0);
  CHECK(count_of(memory) == kCollections);
  ::unlink(wrapper.c_str());
}

TEST_CASE("usdt semaphore in /proc/PID/mem: -p sets it in a running process") {
  // The target blocks SIGUSR1 and waits for it, then makes its calls and exits.
  const std::string program = "import signal, sys\n"
                              "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})\n"
                              "print('ready', flush=True)\n"
                              "signal.sigwait({signal.SIGUSR1})\n" +
                              kCalls + "\n";
  auto traced_count = [&](const char* missing) {
    Process target({kPython, "-c", program});
    REQUIRE(target.wait_for_output("ready\n", 20));
    if (missing) ::setenv("RAWPROBE_PRETEND_MISSING", missing, 1);
    TracedRun run = trace_running(target, kScript, SIGUSR1);
    ::unsetenv("RAWPROBE_PRETEND_MISSING");
    const RunResult& traced = run.tracer;
    INFO(traced.out, traced.err);
    REQUIRE(run.target.status == 0);
    CHECK(traced.status == 0);
    return count_of(traced);
  };
  CHECK(traced_count(nullptr) == kCollections);
  CHECK(traced_count(kOldKernel) == kCollections);
}

TEST_CASE("usdt semaphore in /proc/PID/mem: the errors say what to do") {
  SUBCASE("no process to write into") {
    RunResult r = with_missing(kOldKernel, [&] { return run_rawprobe({"-e", kScript}); });
    CHECK(r.status == 1);
    CHECK(r.err.find("USDT probe has a semaphore this kernel cannot maintain") != std::string::npos);
    CHECK(r.err.find("give -p PID or -c CMD") != std::string::npos);
  }
  SUBCASE("a command that never maps the binary") {
    RunResult r = with_missing(kOldKernel, [&] { return run_rawprobe({"-c", "/bin/true", "-e", kScript}); });
    CHECK(r.status == 1);
    CHECK(r.err.find("the command exited before it mapped the binary") != std::string::npos);
    CHECK(r.err.find("trace it with -p PID") != std::string::npos);
  }
}

TEST_CASE("RAWPROBE_PRETEND_MISSING: --info reports the feature missing and names unknown keys") {
  RunResult r = with_missing("uprobe_ref_ctr,no_such_feature", [&] { return run_rawprobe({"--info"}); });
  CHECK(r.status == 0);
  CHECK(r.out.find("RAWPROBE_PRETEND_MISSING says so") != std::string::npos);
  CHECK(r.err.find("unknown feature 'no_such_feature' ignored") != std::string::npos);
  RunResult plain = run_rawprobe({"--info"});
  CHECK(plain.out.find("RAWPROBE_PRETEND_MISSING") == std::string::npos);
}

TEST_SUITE_END();

}  // namespace rawprobe::cli_test
