// bpftrace 0.26.1's block scoping, block expressions and records in the front end. Each
// expectation comes from 0.26.1's docs/language.md ("Variables and Maps", "Block
// Expressions", "Tuples", "Macros"), its migration guide (docs/migration_guide.md, "Added
// block scoping for scratch variables") or its runtime tests (tests/runtime/record), quoted
// at each case. The kernel test cli_v026_blocks_test.cpp runs the same programs.
#include <doctest/doctest.h>

#include "engine/base/type_names.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

// "test.bt:LINE:COL: error: " of the first `needle` in the one-line script `text`, so that
// expected places come from the script, not from counting by hand.
std::string where(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  return "test.bt:1:" + std::to_string(at + 1) + ": error: ";
}

std::string errors_of(const std::string& text) {
  FrontEndResult r = test::front_end(text);
  CHECK_FALSE(r.ok);
  return test::error_text(r);
}

void accepted(const std::string& text) {
  FrontEndResult r = test::front_end(text);
  CHECK_MESSAGE(r.ok, text, "\n", test::error_text(r));
}

// The type of the argument of the probe's last statement, print(ARG).
std::string printed_type(const std::string& text) {
  FrontEndResult r = test::front_end(text);
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  const Stmt& s = *r.program.ast.probes.at(0).body.back();
  REQUIRE(s.expr->kind == ExprKind::Call);
  return type_name(s.expr->operands.at(0)->type);
}

}  // namespace

TEST_CASE("a variable declared with let ends with its block") {
  // docs: "'scratch' variables cannot be accessed outside of their lexical block".
  std::string text = "BEGIN { if (1) { let $x = 1; } print($x); }";
  CHECK(errors_of(text).find(where(text, "$x)") + "Undefined or undeclared variable: $x") != std::string::npos);
  // A loop's body is a block too.
  text = "BEGIN { $i = 0; while ($i < 2) { let $y = $i; $i++; } print($y); }";
  CHECK(errors_of(text).find(where(text, "$y)") + "Undefined or undeclared variable: $y") != std::string::npos);
  // docs: the declared variable is seen by the block inside ("let $b; if ($a == 1) { $b = ...").
  accepted("BEGIN { let $a = 1; let $b; if ($a == 1) { $b = \"hello\"; $a = 2; } print($b); }");
}

TEST_CASE("let may not shadow a visible variable, nor declare one twice") {
  // Migration guide: "scratch variable shadowing is not allowed e.g. this is not valid:
  // let $x; if (0) { let $x = "hello"; }".
  std::string text = "BEGIN { let $x; if (0) { let $x = \"hello\"; } }";
  std::string err = errors_of(text);
  CHECK(err.find(where(text, "$x = ") + "let $x shadows the $x of an enclosing block") != std::string::npos);
  CHECK(err.find("drop the `let` to assign to that variable, or use another name") != std::string::npos);
  text = "BEGIN { $x = 1; let $x = 2; }";
  CHECK(errors_of(text).find(where(text, "$x = 2") + "$x is already a variable in this block") != std::string::npos);
}

TEST_CASE("variables of one name in sibling blocks are different variables") {
  // docs: a variable's type "is automatically determined during first assignment and cannot
  // be changed afterwards"; under block scoping each block's $x is its own variable.
  accepted("BEGIN { if (1) { let $x = \"str\"; print($x); } else { let $x = 5; print($x); } }");
  accepted("BEGIN { if (1) { $y = \"str\"; } if (1) { $y = 5; print($y); } }");
  CHECK(printed_type("BEGIN { if (1) { let $x = \"abc\"; } let $x = (1, 2); print($x); }") == "(int64,int64)");
  // Messages name the second variable as the script does, though it is another variable.
  std::string text = "BEGIN { if (1) { $y = \"s\"; } if (1) { $y = 5; $y = \"t\"; } }";
  CHECK(errors_of(text).find(where(text, "= \"t\"") + "Type mismatch for $y: trying to assign value of type "
                                                       "'string[2]' when variable already contains a value of type "
                                                       "'int64'") != std::string::npos);
}

TEST_CASE("a variable assigned in a block and read after it keeps bpftrace 0.17's meaning") {
  // Migration guide: 0.21 and before accepted `if (0) { $x = "hello"; } print(($x));`
  // ("prints an empty line"); 0.22 refuses it. Debian's 0.17 scripts rely on it, and no 0.26
  // script does, so rawprobe keeps the 0.17 reading: one $x for the whole probe.
  CHECK(printed_type("BEGIN { if (0) { $x = \"hello\"; } print(($x)); }") == "string[6]");
  // The migration guide's "not valid even though `$x` is set in both branches" example.
  CHECK(printed_type("BEGIN { if (0) { $x = \"hello\"; } else { $x = \"bye\"; } print(($x)); }") == "string[6]");
}

TEST_CASE("a block expression has the value of its last expression") {
  // docs: "let $a = { let $b = 1; $b };" and "This can be used anywhere an expression can".
  CHECK(printed_type("BEGIN { let $a = { let $b = 1; $b }; print($a); }") == "int64");
  CHECK(printed_type("BEGIN { print({ let $s = \"ab\"; $s }); }") == "string[3]");
  // Its own variables end with it.
  std::string text = "BEGIN { $a = { let $b = 1; $b + 1 }; print($b); }";
  CHECK(errors_of(text).find(where(text, "$b)") + "Undefined or undeclared variable: $b") != std::string::npos);
  // docs: "as long as the last statement of the block is an expression with no trailing
  // semi-colon".
  text = "BEGIN { $a = { let $b = 1; $b; }; }";
  CHECK(errors_of(text).find(where(text, "{ let") + "this block has no value") != std::string::npos);
  text = "BEGIN { $a = 1 ? { printf(\"x\"); 1 } : 2; }";
  CHECK(errors_of(text).find(where(text, "{ printf") + "a block with statements cannot be used where its value is "
                                                        "computed only sometimes") != std::string::npos);
}

TEST_CASE("a macro with statements before its value is a block expression") {
  // docs, Macros: "macro add_one(x) { let $x = x; $x + 1 }" binds its argument once.
  CHECK(printed_type("macro add_one(x) { let $x = x; $x + 1 }\nBEGIN { print(add_one(2)); }") == "int64");
  // docs: side_effects({ printf("hi") }) passes a block as an expression argument.
  accepted("macro side_effects(x) { x; x; x; }\nBEGIN { side_effects({ printf(\"hi\") }); }");
}

TEST_CASE("records: named fields, read by name, nested both ways") {
  // tests/runtime/record, "basic record": `$t = (a=0, b=1, c="str", d=(5, 6), e=$v)` and
  // `$t.a`, `$t.c`, `$t.d.0`.
  std::string rec = "BEGIN { $v = 99; $t = (a=0, b=1, c=\"str\", d=(5, 6), e=$v); ";
  CHECK(printed_type(rec + "print($t); }") == "(a=int64,b=int64,c=string[4],d=(int64,int64),e=int64)");
  CHECK(printed_type(rec + "print($t.c); }") == "string[4]");
  CHECK(printed_type(rec + "print($t.d.1); }") == "int64");
  CHECK(printed_type("BEGIN { $v = (x=1, y=2); $t = (a=0, e=$v); print($t.e.y); }") == "int64");
  CHECK(printed_type("BEGIN { $t = (a=1,); print($t); }") == "(a=int64)");
  // Map keys and values (tests/runtime/record, "record printing complex args": @[$a] = (...)).
  CHECK(printed_type("BEGIN { @[(a=1, b=\"x\")] = (\"bye\", (m=2, n=10)); print(@[(a=1, b=\"x\")].1.n); }") == "int64");
}

TEST_CASE("record errors say which fields there are") {
  std::string text = "BEGIN { $t = (a=1, b=2); print($t.c); }";
  CHECK(errors_of(text).find(where(text, "$t.c") + "the record (a=int64,b=int64) has no field 'c' (its fields: a, b)") !=
        std::string::npos);
  text = "BEGIN { $t = (1, 2); print($t.a); }";
  CHECK(errors_of(text).find(where(text, "$t.a") + "a tuple's elements have no names") != std::string::npos);
  text = "BEGIN { $t = (a=1, a=2); }";
  CHECK(errors_of(text).find(where(text, "a=2") + "the record names field 'a' twice") != std::string::npos);
  // A record and a tuple of the same fields are different types.
  text = "BEGIN { $t = (a=1, b=2); $t = (1, 2); }";
  CHECK(errors_of(text).find("Type mismatch for $t") != std::string::npos);
}

TEST_CASE("a record literal stored into a record takes the stored field order") {
  // tests/runtime/record, "record evaluation order": (bar=.., foo=..) assigned where
  // (foo=.., bar=..) was stored prints { .foo = 2, .bar = 1 }.
  CHECK(printed_type("BEGIN { $a = (foo=1, bar=\"s\"); $a = (bar=\"t\", foo=2); print($a); }") ==
        "(foo=int64,bar=string[2])");
}

TEST_CASE("discard expressions and one-element tuples") {
  // docs, Block Expressions: "The warning can also be silenced by utilizing the Discard
  // Expression: _ = has_key(@a, 1); // No Warning".
  accepted("BEGIN { @a[1] = 1; _ = has_key(@a, 1); }");
  // docs, Tuples: "A single element tuple requires a trailing comma, `(1,)`".
  CHECK(printed_type("BEGIN { $t = (1,); print($t); }") == "(int64)");
  CHECK(printed_type("BEGIN { $t = (\"a\",); print($t.0); }") == "string[2]");
  CHECK(printed_type("BEGIN { print((1)); }") == "int64");
}
