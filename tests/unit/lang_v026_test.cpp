// bpftrace 0.26.1's language core in the front end: config blocks and the settings registry,
// duration literals, `let`, conditions without parentheses, macros and getopt(). The expected
// values come from 0.26.1's docs/language.md (quoted at each case); the kernel tests
// (cli_v026_language_test.cpp) run the same features against bpftrace 0.17.
#include <doctest/doctest.h>

#include <map>

#include "engine/base/type_names.h"
#include "engine/lang/frontend.h"
#include "engine/lang/settings.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

std::map<std::string, std::string> g_env;
const char* fake_getenv(const char* name) {
  auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

FrontEndResult check(const std::string& text, std::vector<std::string> params = {},
                     std::map<std::string, std::string> env = {}) {
  g_env = std::move(env);
  SourceFile src("t.bt", text);
  SemanticOptions opts;
  opts.params = {std::move(params)};
  opts.getenv = fake_getenv;
  return run_front_end(src, opts);
}

// The value the script's first statement prints with print(EXPR).
uint64_t printed_literal(const FrontEndResult& r) {
  REQUIRE(r.ok);
  const Stmt& s = *r.program.ast.probes.at(0).body.at(0);
  REQUIRE(s.expr->kind == ExprKind::Call);
  const Expr& arg = *s.expr->operands.at(0);
  REQUIRE(arg.kind == ExprKind::Integer);
  return arg.int_value;
}

// The type of the argument of the block's last statement, print(ARG).
std::string printed_type(const std::string& text) {
  FrontEndResult r = check(text);
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  const Stmt& s = *r.program.ast.probes.at(0).body.back();
  REQUIRE(s.expr->kind == ExprKind::Call);
  return type_name(s.expr->operands.at(0)->type);
}

}  // namespace

TEST_CASE("a config block sets the registry's variables, in any of the spellings 0.26.1 allows") {
  // docs: "`BPFTRACE_STACK_MODE`, `STACK_MODE`, and `stack_mode` are equivalent."
  for (const char* name : {"stack_mode", "STACK_MODE", "BPFTRACE_STACK_MODE"}) {
    FrontEndResult r = check(std::string("config = { ") + name + " = perf; max_map_keys = 2 }\nBEGIN { }\n");
    INFO(name, test::error_text(r));
    REQUIRE(r.ok);
    CHECK(r.settings.stack_mode == StackMode::Perf);
    CHECK(r.settings.max_map_keys == 2);
    CHECK(r.settings.was_given("stack_mode"));
    CHECK_FALSE(r.settings.was_given("max_strlen"));
  }
  // Every documented variable is known; each row's default is a value its own parser takes.
  for (const SettingRow& row : setting_rows()) {
    Settings s;
    INFO(row.name);
    CHECK(find_setting(row.name) == &row);
    if (row.kind != SettingKind::String || *row.default_text) CHECK(apply_setting(s, row, row.default_text));
  }
  for (const char* documented : {"max_strlen", "max_map_keys", "missing_probes", "print_maps_on_exit", "stack_mode",
                                 "perf_rb_pages", "str_trunc_trailer", "cpp_demangle", "lazy_symbolication", "license",
                                 "log_size", "max_bpf_progs", "max_probes", "on_stack_limit", "max_cat_bytes",
                                 "cache_user_symbols", "show_debug_info", "unstable_map_decl", "unstable_tseries",
                                 "unstable_addr"})
    CHECK_MESSAGE(find_setting(documented), documented);
}

TEST_CASE("config block errors name the variable, what it takes and where") {
  FrontEndResult r = check("config = { max_strln = 10 }\nBEGIN { }\n");
  CHECK_FALSE(r.ok);
  CHECK(test::error_text(r).find("t.bt:1:12: error: unknown config variable 'max_strln'; did you mean 'max_strlen'?") !=
        std::string::npos);
  r = check("config = {\n  missing_probes = wran;\n}\nBEGIN { }\n");
  CHECK(test::error_text(r).find("t.bt:2:20: error: config variable missing_probes takes one of error, warn, ignore, not 'wran'") !=
        std::string::npos);
  r = check("config = { max_strlen = \"big\" }\nBEGIN { }\n");
  CHECK(test::error_text(r).find("max_strlen takes a non-negative integer, not 'big'") != std::string::npos);
  r = check("config = { print_maps_on_exit = 2 }\nBEGIN { }\n");
  CHECK(test::error_text(r).find("print_maps_on_exit takes true or false, not '2'") != std::string::npos);
}

TEST_CASE("environment variables beat the config block, as 0.26.1 documents") {
  // docs: "Environment variables for the same config take precedence over those set inside a
  // script config block."
  const char* script = "config = { max_strlen = 8; stack_mode = perf }\nBEGIN { }\n";
  FrontEndResult r = check(script, {}, {{"BPFTRACE_MAX_STRLEN", "16"}});
  REQUIRE(r.ok);
  CHECK(r.settings.max_strlen == 16);
  CHECK(r.settings.stack_mode == StackMode::Perf);
  // bpftrace 0.17's names are read too, after 0.26's; RAWPROBE_ before both.
  r = check(script, {}, {{"BPFTRACE_STRLEN", "24"}});
  CHECK(r.settings.max_strlen == 24);
  r = check(script, {}, {{"BPFTRACE_STRLEN", "24"}, {"BPFTRACE_MAX_STRLEN", "32"}, {"RAWPROBE_MAX_STRLEN", "40"}});
  CHECK(r.settings.max_strlen == 40);
  // 0.17's BPFTRACE_NO_CPP_DEMANGLE=1 is cpp_demangle = false.
  r = check("BEGIN { }\n", {}, {{"BPFTRACE_NO_CPP_DEMANGLE", "1"}});
  CHECK_FALSE(r.settings.cpp_demangle);
  r = check("BEGIN { }\n", {}, {{"BPFTRACE_MAP_KEYS_MAX", "many"}});
  CHECK(test::error_text(r).find("max_map_keys takes a non-negative integer, not 'many' (from the environment variable "
                      "BPFTRACE_MAP_KEYS_MAX)") != std::string::npos);
}

TEST_CASE("stack_mode sets the mode of a kstack that names none") {
  FrontEndResult r = check("config = { stack_mode = raw }\nBEGIN { @[kstack] = count(); @[kstack(perf)] = count(); }\n");
  REQUIRE(r.ok);
  const auto& body = r.program.ast.probes[0].body;
  CHECK(body[0]->target->operands[0]->type.stack_mode == StackMode::Raw);
  CHECK(body[1]->target->operands[0]->type.stack_mode == StackMode::Perf);
}

TEST_CASE("duration literals are nanoseconds") {
  // docs: "$a = 1m; print($a); // prints 60000000000"
  CHECK(printed_literal(check("BEGIN { print(1m); }")) == 60000000000ull);
  CHECK(printed_literal(check("BEGIN { print(10ms); }")) == 10000000ull);
  CHECK(printed_literal(check("BEGIN { print(5us); }")) == 5000ull);
  CHECK(printed_literal(check("BEGIN { print(2h); }")) == 7200000000000ull);
  CHECK(printed_literal(check("BEGIN { print(1d); }")) == 86400000000000ull);
  CHECK(printed_literal(check("BEGIN { print(7ns); }")) == 7ull);
  CHECK(printed_literal(check("BEGIN { print(3s); }")) == 3000000000ull);
  // C's integer suffixes still read as before.
  CHECK(printed_literal(check("BEGIN { print(5u); }")) == 5ull);
  CHECK(printed_literal(check("BEGIN { print(5ul); }")) == 5ull);
  FrontEndResult r = check("BEGIN { print(5sec); }");
  CHECK(test::error_text(r).find("invalid integer literal '5s...'") != std::string::npos);
}

TEST_CASE("let declares a variable, with or without a value or a type") {
  // docs' example under "Variables and Maps", in a probe.
  FrontEndResult r = check("BEGIN { let $a = 1; let $b; if ($a == 1) { $b = \"hello\"; $a = 2; } }");
  CHECK_MESSAGE(r.ok, test::error_text(r));
  r = check("BEGIN { let $x: uint16 = 7; $y = $x; }");
  REQUIRE(r.ok);
  CHECK(r.program.ast.probes[0].body[0]->expr->type.size == 2);
  r = check("BEGIN { let $x: float = 7; }");
  CHECK(test::error_text(r).find("unknown type 'float' for $x: use one of uint8 .. uint64, int8 .. int64, bool") !=
        std::string::npos);
}

TEST_CASE("if and while take a condition without parentheses") {
  FrontEndResult r = check("BEGIN { $i = 0; while $i < 5 { $i++; } if $i == 5 { print(1); } else if $i { print(2); } }");
  CHECK_MESSAGE(r.ok, test::error_text(r));
  r = check("BEGIN { if { } }");
  CHECK(test::error_text(r).find("expected a condition after 'if', found '{'") != std::string::npos);
}

TEST_CASE("macros expand by 0.26.1's rules") {
  // The valid usages of docs/language.md's "Macros" section (all but the block expression).
  const char* macros =
      "macro one() { 1 }\n"
      "macro add_one(x) { x + 1 }\n"
      "macro add_one_to_each($a, @b) { $a += 1; @b += 1; }\n"
      "macro add_two(x) { add_one(x) + 1 }\n";
  FrontEndResult r = check(std::string(macros) + "BEGIN { print(one()); }");
  CHECK(printed_literal(r) == 1);
  r = check(std::string(macros) + "BEGIN { print(one); }");
  CHECK(printed_literal(r) == 1);
  r = check(std::string(macros) + "BEGIN { $a = 10; print(add_one($a)); @b = 5; add_one_to_each($a, @b); print(add_two(1)); }");
  CHECK_MESSAGE(r.ok, test::error_text(r));
  // The macro's own variables are not the caller's.
  r = check("macro set() { $x = \"text\"; }\nBEGIN { $x = 1; set(); $y = $x + 1; }");
  CHECK_MESSAGE(r.ok, test::error_text(r));
  // docs' invalid usages.
  r = check("macro unhygienic_access() { @x++ }\nBEGIN { @x = 1; unhygienic_access(); }");
  CHECK(test::error_text(r).find("macro unhygienic_access uses the map @x, which is not passed to it") != std::string::npos);
  r = check("macro wrong_parameter_type($x) { $x++ }\nBEGIN { @x = 1; wrong_parameter_type(@x); }");
  CHECK(test::error_text(r).find("macro wrong_parameter_type expects a scratch variable for its parameter $x") != std::string::npos);
  r = check("macro wrong_parameter_type($x) { $x++ }\nBEGIN { wrong_parameter_type(1 + 1); }");
  CHECK(test::error_text(r).find("expects a scratch variable") != std::string::npos);
  r = check("macro f(a, b) { a + b }\nBEGIN { print(f(1)); }");
  CHECK(test::error_text(r).find("macro f takes 2 arguments, 1 given") != std::string::npos);
  r = check("macro loop() { loop() }\nBEGIN { print(loop()); }");
  CHECK(test::error_text(r).find("expands more than 64 levels deep") != std::string::npos);
  // Statements before the value make a block expression (lang_scopes_test.cpp); a body
  // with no value has none to give.
  r = check("macro none() { $t = 1; }\nBEGIN { print(none() + 1); }");
  CHECK(test::error_text(r).find("macro none is used as a value, but its body ends with ';'") != std::string::npos);
}

TEST_CASE("getopt reads named options after --, typed by its default") {
  // docs: `getopt("aa", 1)` evaluates to 20 and `getopt("bb")` to true with `-- --aa=20 --bb`.
  CHECK(printed_literal(check("BEGIN { print(getopt(\"aa\", 1)); print(getopt(\"bb\")); }", {"--aa=20", "--bb"})) == 20);
  CHECK(printed_literal(check("BEGIN { print(getopt(\"bb\")); }", {"--bb"})) == 1);
  CHECK(printed_literal(check("BEGIN { print(getopt(\"bb\")); }")) == 0);
  CHECK(printed_literal(check("BEGIN { print(getopt(\"depth\", 35, \"Maximum depth\")); }")) == 35);
  CHECK(printed_literal(check("BEGIN { print(getopt(\"errname\", false, \"help\")); }", {"--errname"})) == 1);
  CHECK(printed_literal(check("BEGIN { print(getopt(\"errname\", true)); }", {"--errname=false"})) == 0);
  FrontEndResult r = check("BEGIN { print(getopt(\"name\", \"x\")); }", {"--name=abc"});
  REQUIRE(r.ok);
  CHECK(r.program.ast.probes[0].body[0]->expr->operands[0]->str == "abc");
  r = check("BEGIN { print(getopt(\"depth\", 35)); }", {"--depth=deep"});
  CHECK(test::error_text(r).find("option --depth takes an integer (e.g. --depth=35), not 'deep'") != std::string::npos);
  r = check("BEGIN { print(getopt(\"depth\", 35)); }", {"--dpeth=3"});
  CHECK(test::error_text(r).find("unexpected program command line option --dpeth; did you mean 'depth'?: expected program options: --depth") !=
        std::string::npos);
}

TEST_CASE("map declarations take 0.26's four kinds and must fit the value") {
  // docs "Map Declarations": hash, lruhash, percpuhash, percpulruhash, with max entries.
  FrontEndResult r = check("let @a = lruhash(100);\nlet @b = percpulruhash(20);\nBEGIN { @a[1] = 2; @b[1] = count(); }");
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  REQUIRE(r.program.ast.map_decls.size() == 2);
  CHECK(r.program.ast.map_decls[0].max_entries == 100);
  CHECK(r.program.ast.map_decls[1].kind == "percpulruhash");
  r = check("let @a = arrayhash(10);\nBEGIN { @a[1] = 2; }");
  CHECK(test::error_text(r).find("unknown map type 'arrayhash'") != std::string::npos);
  r = check("let @a = hash(0);\nBEGIN { @a[1] = 2; }");
  CHECK(test::error_text(r).find("a map holds 1 to 4294967295 entries, not 0") != std::string::npos);
  r = check("let @a = hash(10);\nBEGIN { @a[1] = count(); }");
  CHECK(test::error_text(r).find("map @a holds an aggregation, which needs a per-CPU map") != std::string::npos);
}

// The bool type (bpftrace 0.22 on; docs/language.md "Data Types": bool is `true` or `false`).
TEST_CASE("true, false, comparisons, ! and casts to bool are bools") {
  CHECK(printed_type("BEGIN { print(true); }") == "bool");
  CHECK(printed_type("BEGIN { print(false); }") == "bool");
  CHECK(printed_type("BEGIN { print(1 < 2); }") == "bool");
  CHECK(printed_type("BEGIN { print(comm == \"sh\"); }") == "bool");
  CHECK(printed_type("BEGIN { print(!5); }") == "bool");
  CHECK(printed_type("BEGIN { print(curtask != 0); }") == "bool");
  CHECK(printed_type("BEGIN { print(true && 1 > 0); }") == "bool");
  CHECK(printed_type("BEGIN { print((bool)7); }") == "bool");
  CHECK(printed_type("BEGIN { print((bool)\"x\"); }") == "bool");
  CHECK(printed_type("BEGIN { print((bool)curtask); }") == "bool");
  CHECK(printed_type("BEGIN { print(is_str(comm)); }") == "bool");
  CHECK(printed_type("BEGIN { let $b: bool = true; print($b); }") == "bool");
  CHECK(printed_type("BEGIN { $b = 3 > 2; print($b); }") == "bool");
  // Arithmetic on bools, and 1 && 2 (integers), stay integers, as in 0.17 (signed only when
  // both sides are: a bool is unsigned).
  CHECK(printed_type("BEGIN { print(true + 1); }") == "unsigned int64");
  CHECK(printed_type("BEGIN { print(1 && 2); }") == "int64");
  CHECK(printed_type("BEGIN { print((int64)true); }") == "int64");
}

TEST_CASE("a variable given a bool and an integer holds integers, as 0.17 scripts expect") {
  CHECK(printed_type("BEGIN { $found = 0; $found = pid == 1; print($found); }") == "int64");
  CHECK(printed_type("BEGIN { @m = pid == 1; @m = 5; print(@m); }") == "unsigned int64");
}

TEST_CASE("(bool) of a value without a truth value is refused, naming it") {
  FrontEndResult r = check("BEGIN { @c = count(); $b = (bool)@c; }");
  CHECK_FALSE(r.ok);
  CHECK_MESSAGE(test::error_text(r).find("t.bt:1:28: error: Cannot cast from 'count' to 'bool': only an integer, a pointer or a "
                              "string has a truth value") != std::string::npos,
                test::error_text(r));
}
