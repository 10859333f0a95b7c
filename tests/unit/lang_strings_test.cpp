// Strings as byte sequences in the front end, bpftrace 0.26 on: `s[i]` is the string's byte i,
// an int8 as C's char (bpftrace's stdlib treats string-like values as int8 arrays). The
// expected bytes are the script's own literals, read here with std::string.
#include <doctest/doctest.h>

#include "engine/lang/frontend.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

FrontEndResult check(const std::string& text) {
  SourceFile src("t.bt", text);
  return run_front_end(src, SemanticOptions{});
}

// The first statement's first argument, print(ARG), after checking.
const Expr& printed(const FrontEndResult& r) {
  REQUIRE_MESSAGE(r.ok, r.errors);
  const Stmt& s = *r.program.ast.probes.at(0).body.back();
  REQUIRE(s.expr->kind == ExprKind::Call);
  return *s.expr->operands.at(0);
}

}  // namespace

TEST_CASE("a literal string's byte is a literal: \"/\"[0] as opensnoop.bt of bpftrace 0.26.1 compares it") {
  const std::string text = "/";
  FrontEndResult r = check("BEGIN { print(\"/\"[0]); }");
  const Expr& first = printed(r);
  REQUIRE(first.kind == ExprKind::Integer);
  CHECK(first.int_value == static_cast<uint64_t>(static_cast<int8_t>(text[0])));
  // The byte past the text is the literal's NUL (string[2]).
  FrontEndResult r1 = check("BEGIN { print(\"/\"[1]); }");
  const Expr& nul = printed(r1);
  REQUIRE(nul.kind == ExprKind::Integer);
  CHECK(nul.int_value == 0);
  // A byte above 0x7f is negative, as a C char (int8) is.
  const std::string high = "\xe9";
  FrontEndResult r2 = check("BEGIN { print(\"\\xe9\"[0]); }");
  const Expr& signed_byte = printed(r2);
  CHECK(static_cast<int64_t>(signed_byte.int_value) == static_cast<int8_t>(high[0]));
}

TEST_CASE("a string variable's byte is an int8 read when the program runs") {
  FrontEndResult r = check("BEGIN { $s = \"abc\"; $i = 1; print($s[$i]); }");
  const Expr& e = printed(r);
  CHECK(e.kind == ExprKind::Index);
  CHECK(e.type == Type::integer(1, true));
  FrontEndResult c = check("BEGIN { print(comm[15]); }");
  CHECK(printed(c).type == Type::integer(1, true));
}

TEST_CASE("a literal index past the string's capacity is an error; a non-integer index too") {
  // "/" is string[2]: bytes 0 and 1.
  FrontEndResult r = check("BEGIN { print(\"/\"[2]); }");
  CHECK_FALSE(r.ok);
  CHECK_MESSAGE(r.errors.find("t.bt:1:15: error: the index 2 is out of bounds for string[2] (its bytes are 0 to 1)") !=
                    std::string::npos,
                r.errors);
  // comm is string[16].
  r = check("BEGIN { $c = comm; print($c[16]); }");
  CHECK(r.errors.find("the index 16 is out of bounds for string[16]") != std::string::npos);
  r = check("BEGIN { $s = \"abc\"; print($s[\"x\"]); }");
  CHECK_MESSAGE(r.errors.find("t.bt:1:30: error: A string index must be an integer (string[2] given)") !=
                    std::string::npos,
                r.errors);
}
