// bpftrace 0.26.1's records, block expressions and block scoping, run for real. The expected
// output is bpftrace 0.26.1's own: its runtime tests (tests/runtime/record: NAME, PROG and
// EXPECT quoted at each case) and the outputs its docs/language.md states in comments. Where
// 0.17 and 0.26 agree on a program's meaning, bpftrace 0.17 (/usr/bin/bpftrace) runs the 0.17
// spelling as the oracle.
#include <doctest/doctest.h>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// Lines of `out` after "Attaching N probe(s)...", without the blank lines at the end (the
// runtime tests' EXPECT lines say nothing of those).
std::string program_output(const RunResult& r) {
  size_t nl = r.out.find('\n');
  REQUIRE(r.out.rfind("Attaching ", 0) == 0);
  std::string text = r.out.substr(nl + 1);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text + "\n";
}

RunResult run_script(const std::string& script) {
  RunResult r = run_rawprobe({"-e", script});
  INFO(script, "\n", r.out, r.err);
  REQUIRE(r.status == 0);
  return r;
}

}  // namespace

TEST_CASE("records read by name and print as bpftrace 0.26.1 prints them") {
  // tests/runtime/record, NAME basic record:
  //   PROG begin { $v = 99; $t = (a=0, b=1, c="str", d=(5, 6), e=$v); printf("%d %d %s %d %d %d\n", $t.a, $t.b, $t.c, $t.d.0, $t.d.1, $t.e);  }
  //   EXPECT 0 1 str 5 6 99
  RunResult r = run_script(
      "begin { $v = 99; $t = (a=0, b=1, c=\"str\", d=(5, 6), e=$v); printf(\"%d %d %s %d %d %d\\n\", $t.a, $t.b, $t.c,"
      " $t.d.0, $t.d.1, $t.e); exit(); }");
  CHECK(program_output(r) == "0 1 str 5 6 99\n");
  // NAME record printing:
  //   PROG begin { $v = (x=1, y=2); $t = (a=0, b=1, c="str", d=(5, 6), e=$v); print($t);  }
  //   EXPECT { .a = 0, .b = 1, .c = str, .d = (5, 6), .e = { .x = 1, .y = 2 } }
  r = run_script("begin { $v = (x=1, y=2); $t = (a=0, b=1, c=\"str\", d=(5, 6), e=$v); print($t); exit(); }");
  CHECK(program_output(r) == "{ .a = 0, .b = 1, .c = str, .d = (5, 6), .e = { .x = 1, .y = 2 } }\n");
  // NAME record evaluation order: each field's block runs in the order written; the second
  // record is stored into the first's field order.
  //   EXPECT helloworldhelloworld
  //   EXPECT { .foo = 2, .bar = 1 }
  r = run_script(
      "begin { $a = (foo={ printf(\"hello\"); 1 }, bar={ printf(\"world\"); 2 }); $a = (bar={ printf(\"hello\"); 1 },"
      " foo={ printf(\"world\\n\"); 2 }); print($a); exit(); }");
  CHECK(program_output(r) == "helloworldhelloworld\n{ .foo = 2, .bar = 1 }\n");
}

TEST_CASE("records as map keys and values print in the layout of bpftrace 0.26.1's test") {
  // NAME record printing complex args: @[$a] = ("bye", (m=args, n=10)) with
  // $a = (a=1, b="hello", c=(args, (x=100, y=$args.c))) expects
  //   @[{ .a = 1, .b = hello, .c = \({ .n = 0x[0-9a-f]+, .c = 120 }, { .x = 100, .y = 120 }\) }]: \(bye, { .m = { .n = 0x[0-9a-f]+, .c = 120 }, .n = 10 }\)
  // The same shape here, with records of integers in place of the uprobe's args struct.
  RunResult r = run_script(
      "begin { $s = (n=7, c=120); $a = (a=1, b=\"hello\", c=($s, (x=100, y=$s.c))); @[$a] = (\"bye\", (m=$s, n=10));"
      " exit(); }");
  CHECK(program_output(r) ==
        "\n\n@[{ .a = 1, .b = hello, .c = ({ .n = 7, .c = 120 }, { .x = 100, .y = 120 }) }]: (bye, { .m = { .n = 7, "
        ".c = 120 }, .n = 10 })\n");
}

TEST_CASE("block expressions give their last expression, as the docs' examples say") {
  // docs/language.md, Macros: "side_effects({ printf("hi") })  // prints hihihi", and the
  // rest of that example's comments: 1, 1, 11, 3, 17, then "print(add_two(1)); // prints 3".
  RunResult r = run_script(
      "macro one() { 1 }\n"
      "macro add_one(x) { x + 1 }\n"
      "macro add_one_to_each($a, @b) { $a += 1; @b += 1; }\n"
      "macro side_effects(x) { x; x; x; }\n"
      "macro add_two(x) { add_one(x) + 1 }\n"
      "begin { print(one()); print(one); $a = 10; print(add_one($a)); print(add_one(1 + 1));\n"
      "  @b = 5; add_one_to_each($a, @b); print($a + @b);\n"
      "  side_effects({ printf(\"hi\") });\n"
      "  print(add_two(1)); delete(@b); exit(); }");
  CHECK(program_output(r) == "1\n1\n11\n3\n17\nhihihi3\n");
  // docs, Block Expressions: `let $a = { let $b = 1; $b };`, and the Macros note's
  // `macro add_one(x) { let $x = x; $x + 1 }`, which evaluates its argument once.
  r = run_script(
      "macro add_one(x) { let $x = x; $x + 1 }\n"
      "begin { let $a = { let $b = 1; $b }; @n = 0; printf(\"%d %d %d\\n\", $a, add_one(@n++), @n); delete(@n); exit(); }");
  CHECK(program_output(r) == "1 1 1\n");
}

TEST_CASE("block-scoped variables: sibling blocks hold their own types") {
  // docs: 'scratch' variables "cannot be accessed outside of their lexical block", so a $x of
  // each block is its own variable, each with the type of its first assignment.
  RunResult r = run_script(
      "begin { $i = 0; while ($i < 2) { if ($i == 0) { let $x = \"str\"; printf(\"%s \", $x); } else { let $x = $i * 5;"
      " printf(\"%d\\n\", $x); } $i++; } exit(); }");
  CHECK(program_output(r) == "str 5\n");
}

TEST_CASE("let without a value starts at 0 each time it runs") {
  // docs, Variables and Maps: "If no assignment is specified variables will initialize to 0":
  // so in a loop, each pass's `let $x;` gives 0 again, whatever the last pass left.
  RunResult r = run_script(
      "begin { $i = 0; while ($i < 3) { let $x; if ($i == 1) { $x = 5; } printf(\"%d \", $x); $i++; }"
      " printf(\"\\n\"); exit(); }");
  CHECK(program_output(r) == "0 5 0 \n");
}

TEST_SUITE_BEGIN("host-only");

TEST_CASE("records in JSON output are objects that a JSON parser reads back") {
  // 0.26.1's docs and tests show no JSON record; rawprobe writes an object of the fields.
  // Python's json module (host-only: the guests have no python3) parses each line, and the
  // fields must be the script's.
  std::string script = "begin { $r = (a=1, b=\"x\\\"y\", c=(2, (d=3,))); print($r); @m[1] = $r; exit(); }";
  RunResult r = run({"/bin/sh", "-c",
                     "'" + rawprobe_path() + "' -f json -e '" + script + "' | python3 -c '"
                     "import json, sys\n"
                     "rows = [json.loads(l) for l in sys.stdin if l.strip()]\n"
                     "want = {\"a\": 1, \"b\": \"x\\\"y\", \"c\": [2, {\"d\": 3}]}\n"
                     "value = [x[\"data\"] for x in rows if x[\"type\"] == \"value\"]\n"
                     "maps = [x[\"data\"][\"@m\"][\"1\"] for x in rows if x[\"type\"] == \"map\"]\n"
                     "print(value == [want], maps == [want])'"});
  INFO(r.out, r.err);
  CHECK(r.out == "True True\n");
}

TEST_CASE("a variable read after the block that assigned it means what bpftrace 0.17 made of it") {
  // The migration guide's example that 0.22 refuses ("prints an empty line" before 0.22);
  // rawprobe keeps 0.17's reading, so 0.17 is the oracle.
  for (const char* script : {"BEGIN { if (0) { $x = \"hello\"; } print(($x)); exit(); }",
                             "BEGIN { if (1) { $x = \"hello\"; } else { $x = \"bye\"; } print(($x)); exit(); }",
                             "BEGIN { $i = 0; while ($i < 3) { $last = $i * 7; $i++; } printf(\"%d\\n\", $last); exit(); }"}) {
    RunResult oracle = run({"bpftrace", "-e", script});
    RunResult ours = run_rawprobe({"-e", script});
    INFO(script, "\nbpftrace:\n", oracle.out, oracle.err, "\nrawprobe:\n", ours.out, ours.err);
    REQUIRE(oracle.status == 0);
    CHECK(ours.status == 0);
    CHECK(ours.out == oracle.out);
  }
}

TEST_SUITE_END();
