// A USDT probe behind a semaphore, on every kernel the suite runs on (this machine and the VM
// guests): samples/usdt_args calls with_sema's site only while its semaphore is nonzero, once
// per round with the round number, so the counts expected are the rounds the sample is told
// to run. Both ways of setting the semaphore are checked: the kernel's ref_ctr_offset, and
// rawprobe writing the traced process's memory (the path of kernels before 4.20, taken here
// with RAWPROBE_PRETEND_MISSING).
#include <doctest/doctest.h>

#include <cstdlib>

#include "tests/kernel/cli_run.h"

namespace rawprobe::cli_test {

TEST_CASE("usdt semaphore: with_sema fires once per round, set by the kernel or in /proc/PID/mem") {
  const std::string bin = sample("usdt_args");
  const int rounds = 4;
  const std::string script = "usdt:" + bin + ":usdt_args:with_sema { @[arg0] = count(); }";
  for (const char* missing : {"", "uprobe_ref_ctr,uprobe_multi"}) {
    CAPTURE(missing);
    ::setenv("RAWPROBE_PRETEND_MISSING", missing, 1);
    RunResult r = run_rawprobe({"-c", bin + " " + std::to_string(rounds), "-e", script});
    ::unsetenv("RAWPROBE_PRETEND_MISSING");
    INFO(r.out, r.err);
    CHECK(r.status == 0);
    REQUIRE(r.out.find("usdt_args rounds " + std::to_string(rounds)) != std::string::npos);
    for (int round = 0; round < rounds; ++round)
      CHECK(r.out.find("@[" + std::to_string(round) + "]: 1\n") != std::string::npos);
    CHECK(r.out.find("@[" + std::to_string(rounds) + "]") == std::string::npos);
  }
}

}  // namespace rawprobe::cli_test
