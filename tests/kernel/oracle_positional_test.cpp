// Positional parameters against bpftrace 0.17, the oracle: the same program and the same words
// after it, run by both. Runs that work print the same stdout; runs bpftrace refuses are refused
// by rawprobe with the same message at the same column (the first error of each: bpftrace then
// adds errors that follow from the first, which rawprobe does not).
#include <doctest/doctest.h>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/oracle_first_error.h"

using namespace rawprobe::cli_test;

namespace {

struct Case {
  std::string program;
  std::vector<std::string> words;
};

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("positional parameters: $N, str($N), str($N, LEN), $# and their errors, as bpftrace 0.17") {
  const std::vector<Case> cases = {
      {"BEGIN { printf(\"%d %s %d\\n\", $1, str($2), $#); exit(); }", {"42", "foo"}},
      {"BEGIN { printf(\"%d|%s|%d\\n\", $3, str($3), $#); exit(); }", {}},
      {"BEGIN { @x = $1 + 1; @y = $2 * 2; exit(); }", {"0x10", "010"}},
      {"BEGIN { printf(\"%s|%s\\n\", str($1), str($1, 2)); exit(); }", {"foobar"}},
      {"BEGIN { printf(\"%d %d\\n\", $1, $2); exit(); }", {"--", "-5", " 7"}},
      {"BEGIN { if ($1 > 10) { printf(\"big\\n\"); } else { printf(\"small\\n\"); } exit(); }", {"11"}},
      {"BEGIN { @[str($1)] = count(); exit(); }", {"key"}},
      {"BEGIN { printf(\"%d\\n\", $1); exit(); }", {"foo"}},
      {"BEGIN { printf(\"%d\\n\", $1); exit(); }", {"1e3"}},
      {"BEGIN { printf(\"%d\\n\", $1); exit(); }", {"9223372036854775808"}},
      {"BEGIN { printf(\"%d\\n\", $0); exit(); }", {}},
      {"BEGIN { printf(\"%s\\n\", str($#)); exit(); }", {"a"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args{"-e", c.program};
    args.insert(args.end(), c.words.begin(), c.words.end());
    CAPTURE(c.program);
    std::vector<std::string> bt{"bpftrace"};
    bt.insert(bt.end(), args.begin(), args.end());
    RunResult oracle = run(bt);
    RunResult ours = run_rawprobe(args);
    CHECK(ours.status == (oracle.status == 0 ? 0 : 1));
    if (oracle.status == 0) {
      CHECK(ours.out == oracle.out);
      CHECK(ours.err == "");
    } else {
      CHECK(first_error(ours.err) == first_error(oracle.err));
    }
  }
}

TEST_SUITE_END();
