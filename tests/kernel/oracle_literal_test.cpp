// Integer literals against bpftrace 0.17, the oracle: each form printed by both with %lu. A form
// bpftrace takes must give the same value; a form it refuses, rawprobe refuses too (with its own
// message). Character literals are the exception: bpftrace 0.17 has none (it stops at the
// quote), rawprobe reads them as C does, so their values are checked against gcc's.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "tests/kernel/cli_run.h"
#include "tests/unit/arch_oracle.h"

using namespace rawprobe::cli_test;

TEST_SUITE_BEGIN("host-only");

TEST_CASE("integer literals: 1e6, 1_000_000, octal, suffixes and their errors, as bpftrace 0.17") {
  if (geteuid() != 0) {
    MESSAGE("needs root to run BEGIN");
    return;
  }
  const char* forms[] = {"1e6",   "1E6",   "2e3",     "0e5",   "1e0",   "1e16",  "1e17",   "9e18",
                         "1e010", "1_0e2", "010e2",   "1ue3",  "1e3ul", "1E1_6", "1_000_000", "1__0",
                         "0_17",  "017",   "017u",    "08",    "00",    "0x1F",  "0XaB",   "0x1_0",
                         "0x10ul", "5u",   "5U",      "5L",    "5ll",   "5ULL",  "5lu",    "5uu",
                         "18446744073709551615", "18446744073709551616", "0xffffffffffffffff",
                         "0x1ffffffffffffffff", "1e", "1_"};
  int agreed_values = 0, agreed_refusals = 0;
  for (const char* form : forms) {
    std::string program = std::string("BEGIN { printf(\"%lu\\n\", ") + form + "); exit(); }";
    CAPTURE(program);
    RunResult oracle = run({"bpftrace", "-e", program});
    RunResult ours = run_rawprobe({"-e", program});
    if (oracle.status == 0) {
      CHECK_MESSAGE(ours.status == 0, ours.err);
      CHECK(ours.out == oracle.out);
      ++agreed_values;
    } else {
      CHECK(ours.status == 1);
      CHECK(ours.err.find("-e:1:") == 0);  // a positioned error
      ++agreed_refusals;
    }
  }
  MESSAGE(agreed_values << " forms give bpftrace's value, " << agreed_refusals << " are refused as bpftrace refuses them");
  CHECK(agreed_values > 0);
  CHECK(agreed_refusals > 0);
}

TEST_CASE("character literals: the byte value C gives them") {
  if (geteuid() != 0) {
    MESSAGE("needs root to run BEGIN");
    return;
  }
  const char* forms[] = {"'a'", "'Z'", "'0'", "' '", "'\\n'", "'\\t'", "'\\0'", "'\\\\'", "'\\''",
                         "'\"'", "'\\x41'", "'\\101'", "'\\377'", "'\\e'"};
  // gcc's values, as unsigned char: rawprobe has no char type, so a literal is its byte.
  rawprobe::test::ScratchDir dir;
  std::string c = "#include <stdio.h>\nint main(void) {\n";
  for (const char* f : forms) c += std::string("  printf(\"%d\\n\", (unsigned char)") + f + ");\n";
  c += "  return 0;\n}\n";
  std::ofstream(dir.path() / "chars.c") << c;
  std::string exe = (dir.path() / "chars").string();
  REQUIRE(rawprobe::test::run_command("gcc -w -o " + exe + " " + (dir.path() / "chars.c").string()).status == 0);
  rawprobe::test::CommandResult gcc = rawprobe::test::run_command(exe, false);
  REQUIRE(gcc.status == 0);
  // The same program twice: with the literals, and with gcc's numbers in their place.
  std::string program = "BEGIN { ", numbers = "BEGIN { ";
  std::istringstream values(gcc.output);
  for (const char* f : forms) {
    std::string value;
    std::getline(values, value);
    program += std::string("printf(\"%d\\n\", ") + f + "); ";
    numbers += "printf(\"%d\\n\", " + value + "); ";
  }
  program += "exit(); }";
  numbers += "exit(); }";
  RunResult ours = run_rawprobe({"-e", program});
  RunResult expected = run_rawprobe({"-e", numbers});
  CHECK_MESSAGE(ours.status == 0, ours.err);
  REQUIRE(expected.status == 0);
  CHECK(ours.out == expected.out);
  // bpftrace 0.17 refuses them: rawprobe's reading is an addition, not a difference in values.
  RunResult oracle = run({"bpftrace", "-e", "BEGIN { printf(\"%d\\n\", 'a'); exit(); }"});
  CHECK(oracle.status != 0);
  // More than one character is refused with a hint.
  std::string two_chars = "BEGIN { printf(\"%d\\n\", 'ab'); exit(); }";
  RunResult two = run_rawprobe({"-e", two_chars});
  CHECK(two.status == 1);
  std::string col = std::to_string(two_chars.find("'ab'") + 1);
  CHECK(two.err.find("-e:1:" + col + ": error: a character literal holds one character") == 0);
}

TEST_SUITE_END();
