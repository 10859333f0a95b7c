// A block that lists BEGIN and END runs at both, as in bpftrace: compared with bpftrace 0.17's
// stdout where it runs the script, and by what the block records where it cannot (0.17 fails
// on `probe` in such a block).
#include <doctest/doctest.h>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

TEST_SUITE_BEGIN("host-only");

TEST_CASE("BEGIN,END runs the shared block at both ends, as bpftrace does") {
  for (std::string script : {"BEGIN,END { printf(\"Hello\\n\"); exit(); }",
                             "BEGIN,END { @runs = count(); } interval:ms:100 { exit(); }",
                             "END,BEGIN { printf(\"%d\\n\", 7); } interval:ms:100 { exit(); }"}) {
    CAPTURE(script);
    RunResult oracle = run({"bpftrace", "-e", script});
    REQUIRE_MESSAGE(oracle.status == 0, oracle.err);
    RunResult ours = run_rawprobe({"-e", script});
    CHECK(ours.status == 0);
    CHECK(ours.err == "");
    CHECK(ours.out == oracle.out);
  }
  RunResult named = run_rawprobe({"-e", "BEGIN,END { printf(\"%s\\n\", probe); @[probe] = count(); exit(); }"});
  CHECK(named.status == 0);
  CHECK(named.out == "Attaching 2 probes...\nBEGIN\nEND\n\n\n@[BEGIN]: 1\n@[END]: 1\n");
}

TEST_SUITE_END();
