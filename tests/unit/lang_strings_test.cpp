// Strings as byte sequences in the front end, bpftrace 0.26 on: `s[i]` is the string's byte i,
// an int8 as C's char (bpftrace's stdlib treats string-like values as int8 arrays). The
// expected bytes are the script's own literals, read here with std::string.
#include <doctest/doctest.h>

#include "engine/lang/frontend.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

FrontEndResult check(const std::string& text) {
  SourceFile src("t.bt", text);
  return run_front_end(src, SemanticOptions{});
}

// The first statement's first argument, print(ARG), after checking.
const Expr& printed(const FrontEndResult& r) {
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
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
  CHECK_MESSAGE(test::error_text(r).find("t.bt:1:15: error: the index 2 is out of bounds for string[2] (its bytes are 0 to 1)") !=
                    std::string::npos,
                test::error_text(r));
  // comm is string[16].
  r = check("BEGIN { $c = comm; print($c[16]); }");
  CHECK(test::error_text(r).find("the index 16 is out of bounds for string[16]") != std::string::npos);
  r = check("BEGIN { $s = \"abc\"; print($s[\"x\"]); }");
  CHECK_MESSAGE(test::error_text(r).find("t.bt:1:30: error: A string index must be an integer (string[2] given)") !=
                    std::string::npos,
                test::error_text(r));
}

TEST_CASE("strstr and memcmp are int64; strcap is the capacity, known when checked") {
  FrontEndResult r = check("BEGIN { print(strstr(comm, \"a\")); }");
  CHECK(printed(r).type == Type::integer(8, true));
  r = check("BEGIN { print(memcmp(comm, \"abc\", 2)); }");
  CHECK(printed(r).type == Type::integer(8, true));
  r = check("BEGIN { print(strlen(comm)); }");
  CHECK(printed(r).type == Type::integer(8, false));  // docs/stdlib.md: uint64 strlen(string exp)
  r = check("BEGIN { print(strcontains(comm, \"a\")); }");
  CHECK(printed(r).type == Type::boolean());
  r = check("BEGIN { @m[1] = 1; print(has_key(@m, 1)); }");
  CHECK(printed(r).type == Type::boolean());
  r = check("BEGIN { @m[1] = 1; print(delete(@m, 1)); }");
  CHECK(printed(r).type == Type::boolean());
  // A string literal's capacity is its text and the NUL.
  const std::string text = "hello";
  r = check("BEGIN { print(strcap(\"hello\")); }");
  REQUIRE(printed(r).kind == ExprKind::Integer);
  CHECK(printed(r).int_value == text.size() + 1);
  r = check("BEGIN { print(strcap(comm)); }");
  CHECK(printed(r).int_value == 16);  // TASK_COMM_LEN
}

TEST_CASE("the string functions refuse what they cannot take, saying what to do") {
  FrontEndResult r = check("BEGIN { print(strstr(1, \"a\")); }");
  CHECK(test::error_text(r).find("strstr() only supports string arguments (integer provided)") != std::string::npos);
  r = check("struct S { int x; }; BEGIN { print(strcap((struct S *)curtask)); }");
  CHECK_MESSAGE(test::error_text(r).find(": read the string first, strcap(str(p))") != std::string::npos, test::error_text(r));
  r = check("BEGIN { print(memcmp(comm, \"ab\", 4)); }");
  CHECK_MESSAGE(test::error_text(r).find("t.bt:1:34: error: memcmp() of 4 bytes, but string[16] and string[3] hold only 3 in "
                              "common: compare at most that many") != std::string::npos,
                test::error_text(r));
  r = check("BEGIN { print(memcmp(comm, 5, 1)); }");
  CHECK(test::error_text(r).find("memcmp() compares strings or arrays; its right side is int64") != std::string::npos);
  r = check("BEGIN { @m[1] = 1; print(len(@m[1])); }");
  CHECK(test::error_text(r).find("len() counts a whole map: write len(@m), without a key") != std::string::npos);
  r = check("BEGIN { print(len(comm)); }");
  CHECK(test::error_text(r).find("give it a map, not a string[16] (strlen() is a string's length)") != std::string::npos);
  CHECK(check("BEGIN { print(len(ustack)); print(len(kstack(3))); }").ok);
  CHECK(check("BEGIN { @s = kstack; print(len(@s)); }").ok);  // a map, of one element
  r = check("BEGIN { $s = kstack; print(len($s)); }");
  CHECK(test::error_text(r).find("len() counts a stack's frames where it is taken: write len(kstack)") != std::string::npos);
  r = check("BEGIN { static_assert(pid > 0, \"x\"); }");
  CHECK(test::error_text(r).find("t.bt:1:23: error: static_assert()'s condition must be known") != std::string::npos);
  r = check("BEGIN { static_assert(sizeof(comm) == 15, \"comm is 16\"); }");
  CHECK(test::error_text(r).find("t.bt:1:9: error: static assertion failed: comm is 16") != std::string::npos);
  CHECK(check("BEGIN { static_assert(sizeof(comm) == 16 && 2 * 3 > 5, \"fine\"); }").ok);
  CHECK(printed(check("BEGIN { print(usermode); }")).type == Type::integer(1, false));
}

TEST_CASE("assert_str accepts what is string-like, by strings.bt's rule, and says why it refuses the rest") {
  CHECK(check("BEGIN { assert_str(comm); assert_str(\"x\"); assert_str((int8 *)curtask); }").ok);
  CHECK(check("struct S { char name[8]; int n[2]; }; BEGIN { $s = (struct S *)curtask; assert_str($s->name); }").ok);
  FrontEndResult r = check("BEGIN { assert_str(1); }");
  CHECK(test::error_text(r).find("t.bt:1:20: error: string-like values must be either strings, arrays or pointers (int64 given)") !=
        std::string::npos);
  r = check("BEGIN { assert_str((int32 *)curtask); }");
  CHECK(test::error_text(r).find("string-like pointers must point to a char-like type (int32 * given)") != std::string::npos);
  r = check("struct S { char name[8]; int n[2]; }; BEGIN { $s = (struct S *)curtask; assert_str($s->n); }");
  CHECK_MESSAGE(test::error_text(r).find("string-like arrays must contain a char-like type (int[2] given)") != std::string::npos,
                test::error_text(r));
}

