// A 32-bit x86 process traced on an x86_64 kernel: samples/usdt_args.c built by Debian's
// i686 gcc as a static PIE (mk/usdt_cross.mk), whose globals are GOT-relative operands,
// -4@counter@GOTOFF(%eax), and whose registers sit in the 64-bit pt_regs (arch/'s compat
// view). Oracles: the globals' initial values, read from the file's .data by binutils at build
// time (tests/kernel/i386-oracle, SAMPLE.oracle beside the sample), and the sum the sample
// prints. It runs on this host when its kernel runs 32-bit processes, and always in the VM
// guests (Debian's stock kernels do), whose samples hold the sample and its oracle file.
#include <doctest/doctest.h>

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "tests/kernel/cli_run.h"

namespace rawprobe::cli_test {
namespace {

// SAMPLE.oracle: "counter V", "origin_x V", "table I V" lines, keyed "counter", "table 3", ...
std::map<std::string, int32_t> read_oracle(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "no oracle file " << path << " (make elf-samples builds it)");
  std::map<std::string, int32_t> values;
  for (std::string line; std::getline(in, line);) {
    size_t last = line.rfind(' ');
    if (last != std::string::npos) values[line.substr(0, last)] = std::stoi(line.substr(last + 1));
  }
  return values;
}

// Whether this kernel executes the 32-bit program at all: without IA32 emulation (a kernel
// built or booted without it, or a hypervisor such as PVM that runs no compat-mode code) the
// exec fails with ENOEXEC.
bool kernel_runs_32bit(const std::string& bin) {
  pid_t child = fork();
  if (child == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    execl(bin.c_str(), bin.c_str(), "0", nullptr);
    _exit(errno == ENOEXEC ? 126 : 127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return !(WIFEXITED(status) && WEXITSTATUS(status) == 126);
}

std::vector<int64_t> numbers_after(const std::string& line, const std::string& prefix) {
  std::istringstream in(line.substr(prefix.size()));
  std::vector<int64_t> out;
  for (int64_t v; in >> v;) out.push_back(v);
  return out;
}

}  // namespace

TEST_CASE("i386 process on x86_64: USDT registers, SIB memory and @GOTOFF globals read right") {
  const std::string bin = sample("elf/usdt_args_i386_static_pie");
  const std::map<std::string, int32_t> oracle = read_oracle(bin + ".oracle");
#if !defined(__x86_64__)
  // Only an x86_64 kernel runs i386 processes: rawprobe of any other architecture refuses the
  // binary before it starts it.
  RunResult foreign = run_rawprobe({"-e", "usdt:" + bin + ":usdt_args:scalars { }", "-c", bin});
  CHECK(foreign.status == 1);
  CHECK(foreign.err.find("i386 binary cannot run on this") != std::string::npos);
  return;
#endif
  if (!kernel_runs_32bit(bin)) {
    // Not a skip of the feature: the VM guests of the same suite run this test on kernels
    // that execute i386 processes. Here the check is that the kernel really refuses them.
    MESSAGE("this kernel does not execute i386 programs (exec gives ENOEXEC); the VM guests test this");
    RunResult refused = run_rawprobe({"-e", "usdt:" + bin + ":usdt_args:scalars { }", "-c", bin});
    CHECK(refused.status == 1);
    CHECK(refused.err.find("execv: ENOEXEC") != std::string::npos);
    return;
  }
  const int rounds = 3;
  RunResult r = run_rawprobe(
      {"-e",
       "usdt:" + bin + ":usdt_args:scalars { printf(\"s %d %d %d %d %d\\n\", arg0, arg1, arg2, arg3, arg4); } "
       "usdt:" + bin + ":usdt_args:globals { printf(\"g %d %d %d %d\\n\", arg0, arg1, arg2, arg3); }",
       "-c", bin + " " + std::to_string(rounds)});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> scalars = lines_starting(r.out, "s "), globals = lines_starting(r.out, "g ");
  REQUIRE(scalars.size() == rounds);
  REQUIRE(globals.size() == rounds);

  const int32_t counter = oracle.at("counter"), origin_x = oracle.at("origin_x");
  int64_t sum = 0;
  for (int round = 0; round < rounds; ++round) {
    CAPTURE(round);
    std::vector<int64_t> s = numbers_after(scalars[round], "s "), g = numbers_after(globals[round], "g ");
    REQUIRE(s.size() == 5);
    REQUIRE(g.size() == 4);
    CHECK(g[0] == counter);                                                  // counter@GOTOFF(%eax)
    CHECK(g[1] == oracle.at("table " + std::to_string((round + 2) & 15)));  // (%ebx,%edx,4): fire_globals(r + 2)
    CHECK(g[3] == origin_x);                                                 // origin@GOTOFF(%eax)
    for (int64_t v : s) sum += v;
    sum += g[0] + g[1] + g[2];  // what fire_scalars and fire_globals return, summed by main
  }
  // The sample prints that sum as a 32-bit long.
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, std::regex("sum (-?[0-9]+)")));
  CHECK(static_cast<int32_t>(static_cast<uint32_t>(sum)) == std::stoll(m[1]));
}

}  // namespace rawprobe::cli_test
