// A 32-bit x86 process traced on this x86_64 kernel: samples/usdt_args.c built by Debian's
// i686 gcc as a static PIE (mk/usdt_cross.mk), whose globals are GOT-relative operands,
// -4@counter@GOTOFF(%eax), and whose registers sit in the 64-bit pt_regs (arch/'s compat
// view). Oracles: the globals' initial values read from the file's .data through nm and
// readelf -S (not through rawprobe's own segment code), and the sum the sample prints.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "tests/kernel/cli_run.h"

namespace rawprobe::cli_test {
namespace {

// A symbol's link-time address by nm.
uint64_t nm_address(const std::string& path, const std::string& symbol) {
  RunResult r = run({"nm", path});
  std::smatch m;
  REQUIRE_MESSAGE(std::regex_search(r.out, m, std::regex("([0-9a-f]+) . " + symbol + "\n")), symbol);
  return std::stoull(m[1], nullptr, 16);
}

// The little-endian int32 at link-time `address` of the file's .data (by readelf -S).
int32_t data_word(const std::string& path, uint64_t address) {
  RunResult r = run({"readelf", "-SW", path});
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, std::regex(R"(\]\s+\.data\s+PROGBITS\s+([0-9a-f]+)\s+([0-9a-f]+))")));
  uint64_t offset = address - std::stoull(m[1], nullptr, 16) + std::stoull(m[2], nullptr, 16);
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  unsigned char b[4] = {};
  in.read(reinterpret_cast<char*>(b), 4);
  REQUIRE(in.good());
  return static_cast<int32_t>(b[0] | b[1] << 8 | b[2] << 16 | static_cast<uint32_t>(b[3]) << 24);
}

std::vector<int64_t> numbers_after(const std::string& line, const std::string& prefix) {
  std::istringstream in(line.substr(prefix.size()));
  std::vector<int64_t> out;
  for (int64_t v; in >> v;) out.push_back(v);
  return out;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");  // the sample and the oracles (nm, readelf) are the host's

TEST_CASE("i386 process on x86_64: USDT registers, SIB memory and @GOTOFF globals read right") {
  const std::string bin = sample("elf/usdt_args_i386_static_pie");
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

  const int32_t counter = data_word(bin, nm_address(bin, "counter"));
  const int32_t origin_x = data_word(bin, nm_address(bin, "origin"));
  const uint64_t table = nm_address(bin, "table");
  int64_t sum = 0;
  for (int round = 0; round < rounds; ++round) {
    CAPTURE(round);
    std::vector<int64_t> s = numbers_after(scalars[round], "s "), g = numbers_after(globals[round], "g ");
    REQUIRE(s.size() == 5);
    REQUIRE(g.size() == 4);
    CHECK(g[0] == counter);                                                  // counter@GOTOFF(%eax)
    CHECK(g[1] == data_word(bin, table + 4 * ((round + 2) & 15)));          // (%ebx,%edx,4): fire_globals(r + 2)
    CHECK(g[3] == origin_x);                                                 // origin@GOTOFF(%eax)
    for (int64_t v : s) sum += v;
    sum += g[0] + g[1] + g[2];  // what fire_scalars and fire_globals return, summed by main
  }
  // The sample prints that sum as a 32-bit long.
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, std::regex("sum (-?[0-9]+)")));
  CHECK(static_cast<int32_t>(static_cast<uint32_t>(sum)) == std::stoll(m[1]));
}

TEST_SUITE_END();

}  // namespace rawprobe::cli_test
