// Code no path reaches, against bpftrace 0.17: constant conditions (ternary, if, while,
// predicates, && and || with a constant side) and statements after exit(), return, break and
// continue, nested and unrolled. The verifier rejects a program holding any unreachable
// instruction, so each of these once failed to load; now each runs and prints what bpftrace
// prints, byte for byte on stdout.
#include <doctest/doctest.h>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

TEST_SUITE_BEGIN("host-only");

TEST_CASE("oracle: constant conditions and code after exit/return/break/continue run as in bpftrace 0.17") {
  const std::vector<std::string> scripts = {
      "BEGIN { $a = 1 ? \"yes\" : \"no\"; printf(\"%s\\n\", $a); exit(); }",
      "BEGIN { @x = 1; exit(); @x = 2; }",
      "BEGIN { $b = 0 ? 5 : 7; $c = 1 ? 5 : 7; printf(\"%d %d %s\\n\", $b, $c, 0 ? \"t\" : \"f\"); exit(); }",
      "BEGIN { if (1) { printf(\"a\\n\"); } else { printf(\"b\\n\"); } if (0) { printf(\"c\\n\"); }"
      " else { printf(\"d\\n\"); } if (0) { printf(\"e\\n\"); } while (0) { printf(\"w\\n\"); } exit(); }",
      "BEGIN /1/ { printf(\"begin\\n\"); exit(); } END /0/ { printf(\"never\\n\"); }",
      "BEGIN /0/ { printf(\"never\\n\"); } interval:ms:100 /1 && 1/ { printf(\"tick\\n\"); exit(); }"
      " END /0 || 1/ { printf(\"end\\n\"); }",
      "BEGIN { $x = 5; if (1 && $x > 3) { printf(\"p\\n\"); } if (0 && $x > 3) { printf(\"q\\n\"); }"
      " if ($x > 9 || 1) { printf(\"r\\n\"); } if ($x > 9 && 0) { printf(\"s\\n\"); }"
      " $v = 1 || $x; $w = 0 && $x; $y = $x || 0; printf(\"%d %d %d\\n\", $v, $w, $y); exit(); }",
      "BEGIN { @x = 1; if (@x == 1) { exit(); return; @y = 3; } @z = 4; }",
      "BEGIN { $i = 0; while ($i < 3) { $i++; if ($i == 2) { continue; printf(\"dead\\n\"); }"
      " printf(\"i=%d\\n\", $i); } while (1) { $i++; if ($i > 5) { break; printf(\"dead\\n\"); } }"
      " printf(\"%d\\n\", $i); exit(); }",
      "BEGIN { unroll(3) { @u = count(); exit(); @v = 1; } }",
      "BEGIN { if (1) { if (0) { printf(\"x\\n\"); } else { printf(\"y\\n\"); } unroll(2) { if (1) {"
      " printf(\"z\\n\"); } else { printf(\"never\\n\"); } } } exit(); }",
      "BEGIN { $x = 1; if ($x) { exit(); } else { exit(); } @after = 1; }",
      "BEGIN { $i = 0; exit(); while ($i < 3) { $i++; } @never = 1; }",
      "BEGIN { @a = 1; exit(); if (@a) { @b = 2; } else { @c = 3; } }",
  };
  for (const std::string& script : scripts) {
    CAPTURE(script);
    RunResult oracle = run({"bpftrace", "-e", script});
    RunResult ours = run_rawprobe({"-e", script});
    INFO("bpftrace stderr: ", oracle.err);
    INFO("rawprobe stderr: ", ours.err);
    REQUIRE(oracle.status == 0);
    CHECK(ours.status == 0);
    CHECK(ours.out == oracle.out);
  }
}

TEST_SUITE_END();
