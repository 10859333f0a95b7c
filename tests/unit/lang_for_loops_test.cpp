// The parser and checker on bpftrace 0.26's for loops: both header forms, `..` between
// unary expressions (so `$kv.0.1` stays two tuple elements), and the loop variable's type
// (key, value) with several keys nested as a tuple. Running them: tests/kernel/lang_loops_test.cpp.
#include <doctest/doctest.h>

#include "engine/lang/ast_dump.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

TEST_CASE("for loops: header forms, ranges of unary expressions, the entry's type") {
  auto r = test::front_end("BEGIN { @m[1, \"a\"] = 2; for ($kv : @m) { print($kv.0.1); } for $i : -1..(2 + 1) { continue; } }");
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  CHECK(dump_ast(r.program.ast) ==
        "Program\n"
        " probe BEGIN\n"
        "  assign =\n"
        "   map @m :: int64\n"
        "    int 1 :: int64\n"
        "    string \"a\" :: string[2]\n"
        "   int 2 :: int64\n"
        "  for $kv\n"
        "   map @m :: int64\n"
        "   do\n"
        "    call print\n"
        "     tuple element 1 :: string[2]\n"
        "      tuple element 0 :: (int64,string[2])\n"
        "       variable $kv :: ((int64,string[2]),int64)\n"
        "  for $i\n"
        "   unary - :: int64\n"
        "    int 1 :: int64\n"
        "   binary + :: int64\n"
        "    int 2 :: int64\n"
        "    int 1 :: int64\n"
        "   do\n"
        "    continue\n");
  // The variable lives only in the body; `for` stays a name elsewhere.
  auto scoped = test::front_end("BEGIN { for ($i : 0..2) { } $j = $i; }");
  CHECK(test::error_text(scoped).find("Undefined or undeclared variable: $i") != std::string::npos);
  auto header = test::front_end("BEGIN { for ($i 0..2) { } }");
  CHECK(test::error_text(header).find("expected ':' after the for loop's variable") != std::string::npos);
  auto dots = test::front_end("BEGIN { for ($i : 0.2) { } }");
  CHECK_FALSE(dots.ok);
}

TEST_CASE("a macro used in a range's end is expanded there, as opensnoop.bt of bpftrace 0.26.1 uses one") {
  // opensnoop.bt: `for $j : ((uint64)0)..((uint64)max_path_depth) {` with a macro of no
  // parameters called by its bare name.
  auto r = test::front_end("macro depth() { 3 }\nBEGIN { for $j : ((uint64)0)..((uint64)depth) { print($j); } }");
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  std::string tree = dump_ast(r.program.ast);
  CHECK(tree.find("depth") == std::string::npos);
  CHECK(tree.find("int 3") != std::string::npos);
}
