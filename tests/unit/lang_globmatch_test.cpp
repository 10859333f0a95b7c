// globmatch(str, pattern) in the front end: a bool (bpftrace 0.26.1's docs/stdlib.md), with a
// pattern compiled when the script is checked; what it cannot take is an error at the
// argument's file:line:col. Each expected column is found in the script's own text.
#include <doctest/doctest.h>

#include "engine/lang/frontend.h"
#include "engine/lang/glob_pattern.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

FrontEndResult check(const std::string& text) { return test::front_end(text, "t.bt"); }

// "t.bt:1:COL: error: " where COL is the 1-based column of `at` in `text`.
std::string where(const std::string& text, const std::string& at) {
  size_t col = text.find(at);
  REQUIRE(col != std::string::npos);
  return "t.bt:1:" + std::to_string(col + 1) + ": error: ";
}

// A script, the text its error points at, and the message there.
struct Refusal {
  std::string script, at, message;
};

void check_refusals(const std::vector<Refusal>& refusals) {
  for (const Refusal& f : refusals) {
    FrontEndResult r = check(f.script);
    CHECK_FALSE(r.ok);
    std::string want = where(f.script, f.at) + f.message;
    CHECK_MESSAGE(test::error_text(r).find(want) != std::string::npos, test::error_text(r) << "\nwanted: " << want);
  }
}

}  // namespace

TEST_CASE("globmatch is a bool of a string and a literal pattern") {
  FrontEndResult r = check("BEGIN { print(globmatch(comm, \"ba?h*\")); }");
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  const Stmt& s = *r.program.ast.probes.at(0).body.back();
  CHECK(s.expr->operands.at(0)->type == Type::boolean());
  CHECK(check("BEGIN { $s = str(0); if (globmatch($s, \"[!/]*\")) { exit(); } }").ok);
  CHECK_FALSE(check("BEGIN { print(globmatch(comm)); }").ok);
}

TEST_CASE("globmatch refuses a pattern known only when the program runs, and a non-string") {
  check_refusals({
      {"BEGIN { $p = \"a*\"; print(globmatch(comm, $p)); }", "$p)",
       "globmatch()'s pattern must be a string literal (string given): rawprobe compiles the pattern into the "
       "program when the script is checked"},
      {"BEGIN { print(globmatch(pid, \"1*\")); }", "pid,", "globmatch() matches a string ("},
      {"BEGIN { print(globmatch((int8 *)curtask, \"a\")); }", "(int8",
       "globmatch() matches a string (int8 * given): read it first, globmatch(str(p), \"...\")"},
  });
}

TEST_CASE("globmatch refuses, where the pattern is, what fnmatch would read differently") {
  // fnmatch(3) matches nothing with a backwards range or a lone trailing backslash, and knows
  // [:alpha:]: each is refused with what to write instead, rather than matched another way.
  // 64 single-byte tokens are one more than the matcher's state word has bits for.
  std::string many(64, 'a');
  check_refusals({
      {"BEGIN { print(globmatch(comm, \"a[z-a]\")); }", "\"a[z-a]",
       "globmatch(): the range z-a runs backwards (at byte 2 of the pattern): write its lower byte first"},
      {"BEGIN { print(globmatch(comm, \"ab\\\\\")); }", "\"ab",
       "globmatch(): the pattern ends with a lone backslash (at byte 2 of the pattern)"},
      {"BEGIN { print(globmatch(comm, \"[[:alpha:]]*\")); }", "\"[[",
       "globmatch(): character class names such as [:alpha:], [=a=] and [.a.] are not supported (at byte 1 of "
       "the pattern): list the bytes or ranges instead, as [a-zA-Z]"},
      {"BEGIN { print(globmatch(comm, \"" + many + "\")); }", "\"aaa",
       "globmatch()'s pattern has 64 parts (characters, sets and runs of *), more than the 63"},
  });
  CHECK(check("BEGIN { print(globmatch(comm, \"" + many.substr(1) + "\")); }").ok);
}

TEST_CASE("a glob pattern's tokens: runs of * are one, sets hold their ranges, [ alone is literal") {
  GlobPattern g = parse_glob("a**[!]x-z]?[b");
  REQUIRE(g.error.empty());
  REQUIRE(g.tokens.size() == 6);
  CHECK(g.tokens[1].star);
  CHECK(g.tokens[2].negated);
  CHECK(g.tokens[2].ranges == std::vector<std::pair<uint8_t, uint8_t>>{{']', ']'}, {'x', 'z'}});
  CHECK(g.tokens[3].ranges == std::vector<std::pair<uint8_t, uint8_t>>{{1, 255}});
  // The trailing `[b` has no closing `]`: its `[` is a literal byte, as fnmatch(3) takes it.
  CHECK(g.tokens[4].ranges == std::vector<std::pair<uint8_t, uint8_t>>{{'[', '['}});
  CHECK(parse_glob("[b\\").error.find("lone backslash") != std::string::npos);
  GlobPattern open = parse_glob("[bc");
  REQUIRE(open.tokens.size() == 3);
  CHECK(open.tokens[0].ranges == std::vector<std::pair<uint8_t, uint8_t>>{{'[', '['}});
}
