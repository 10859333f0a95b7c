// The front end on the seed's scripts (samples/*.bt), its diagnostics, probe specs, the
// AST dump and the parser's limits.
#include <doctest/doctest.h>

#include "tests/skip.h"

#include <filesystem>

#include "engine/lang/ast_dump.h"
#include "engine/lang/lexer.h"
#include "engine/lang/probe_spec.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

ProbeSpec spec_of(const std::string& text) {
  ProbeSpec s;
  Status parsed = parse_probe_spec(text, {0, 0}, s);
  INFO(text << ": " << (parsed ? "" : parsed.error().what));
  REQUIRE(parsed);
  return s;
}

std::string spec_error(const std::string& text) {
  ProbeSpec s;
  Status parsed = parse_probe_spec(text, {0, 0}, s);
  CHECK_FALSE(parsed);
  return parsed ? "" : parsed.error().what;
}

}  // namespace

TEST_CASE("every sample script parses and checks cleanly (except the seed's typo)") {
  if (!test::tracefs_readable()) {
    RAWPROBE_SKIP("/sys/kernel/tracing is not readable");
    return;
  }
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator("samples")) {
    if (entry.path().extension() != ".bt" || entry.path().filename() == "read_rand_typo.bt") continue;
    auto r = test::front_end(test::read_text(entry.path()), entry.path().string());
    CHECK_MESSAGE(r.ok, test::error_text(r));
    ++checked;
  }
  CHECK(checked >= 5);
}

TEST_CASE("the seed's typo names the probe type and suggests uprobe, with a caret") {
  std::string text = test::read_text("samples/read_rand_typo.bt");
  auto r = test::front_end(text, "samples/read_rand_typo.bt");
  REQUIRE_FALSE(r.ok);
  // Line 3 of the file: two comment lines come first.
  CHECK(test::error_text(r).find("samples/read_rand_typo.bt:3:1: error: unknown probe type 'probe'; did you mean 'uprobe'?\n"
                      "probe:/tmp/read_rand:thread_fun { @start[tid] = nsecs; }\n"
                      "^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n") == 0);
}

TEST_CASE("the seed's second script: map types, tracepoint field and printf-free summary") {
  if (!test::tracefs_readable()) {
    RAWPROBE_SKIP("/sys/kernel/tracing is not readable");
    return;
  }
  auto r = test::front_end(test::read_text("samples/read_rand_reads.bt"));
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  const ProgramInfo& info = r.program.info;
  int ret = info.find_map("@ret");
  REQUIRE(ret >= 0);
  CHECK(info.maps[ret].key.size() == 3);
  CHECK(info.maps[ret].layout.key.size == 24);
  // sys_exit_read's `long ret` (offset and size from the format file read now).
  auto fields = parse_tracepoint_format(test::tracefs_format("syscalls", "sys_exit_read"));
  REQUIRE(fields.ok());
  const TracepointField* field = nullptr;
  for (const auto& f : *fields)
    if (f.name == "ret") field = &f;
  REQUIRE(field);
  CHECK(info.maps[ret].value == Type::integer(8, field->is_signed));
  const Expr& read = *r.program.ast.probes[3].body[1]->expr;
  CHECK(read.kind == ExprKind::Field);
  CHECK(read.field_offset == field->offset);
  CHECK(r.program.ast.probes[2].specs[0].kind == ProbeKind::Tracepoint);
  CHECK(r.program.ast.probes[2].specs[0].name == "sys_enter_read");
}

TEST_CASE("probe specs: every provider's forms and bpftrace 0.17's aliases") {
  ProbeSpec s = spec_of("uprobe:/tmp/read_rand:thread_fun");
  CHECK((s.kind == ProbeKind::Uprobe && s.target == "/tmp/read_rand" && s.func == "thread_fun"));
  s = spec_of("u:libc:malloc+0x10");
  CHECK((s.target == "libc" && s.func == "malloc" && s.has_offset && s.offset == 16));
  s = spec_of("uprobe:/bin/x:0x1130");
  CHECK((s.has_address && s.address == 0x1130));
  s = spec_of("uprobe:/bin/x:\"ns::f(int)\"");
  CHECK((s.quoted && s.func == "ns::f(int)"));
  s = spec_of("ur:/tmp/fun:f*");
  CHECK((s.kind == ProbeKind::Uretprobe && s.wildcard));
  s = spec_of("usdt:/tmp/usdt_hello:yeet-Im-a-USDT-probe:USDT-test-probe");
  CHECK((s.provider == "yeet-Im-a-USDT-probe" && s.name == "USDT-test-probe"));
  s = spec_of("U:/tmp/usdt_hello:USDT-test-probe");
  CHECK((s.kind == ProbeKind::Usdt && s.provider.empty()));
  s = spec_of("t:syscalls:sys_enter_*");
  CHECK((s.kind == ProbeKind::Tracepoint && s.wildcard && s.canonical() == "tracepoint:syscalls:sys_enter_*"));
  s = spec_of("i:ms:100");
  CHECK((s.kind == ProbeKind::Interval && s.unit == "ms" && s.value == 100));
  s = spec_of("p:hz:99");
  CHECK((s.kind == ProbeKind::Profile && s.unit == "hz"));
  s = spec_of("s:cpu-clock:1000");
  CHECK((s.kind == ProbeKind::Software && s.event == "cpu-clock" && s.value == 1000));
  s = spec_of("h:cycles");
  CHECK((s.kind == ProbeKind::Hardware && !s.has_value));
  s = spec_of("k:vfs_read+8");
  CHECK((s.kind == ProbeKind::Kprobe && s.offset == 8));
  s = spec_of("kr:ext4:ext4_sync_fs");
  CHECK((s.kind == ProbeKind::Kretprobe && s.target == "ext4"));
  CHECK(spec_of("BEGIN").kind == ProbeKind::Begin);
  CHECK(spec_of("END").kind == ProbeKind::End);

  // One part after the type is 0.26's duration (interval:1s, profile:100ms; a bare number is
  // nanoseconds, docs/language.md "interval"); 0.17 asked for UNIT:N there.
  s = spec_of("interval:1s");
  CHECK((s.unit == "s" && s.value == 1));
  s = spec_of("profile:100ms");
  CHECK((s.unit == "ms" && s.value == 100));
  s = spec_of("interval:2m");
  CHECK((s.unit == "s" && s.value == 120));
  s = spec_of("i:1000000000");
  CHECK((s.unit == "ns" && s.value == 1000000000));
  CHECK(spec_error("interval:1x").find("invalid interval period '1x'") == 0);
  CHECK(spec_error("interval:1:2:3").find("interval probe type requires 2 arguments") == 0);
  CHECK(spec_error("software:cpu-clocks:1") == "unknown software event 'cpu-clocks'; did you mean 'cpu-clock'?");
  CHECK(spec_error("uretprobe:/bin/x:f+4").find("uretprobe cannot take an offset") == 0);
  CHECK(spec_error("tracepont:syscalls:x") == "unknown probe type 'tracepont'; did you mean 'tracepoint'?");
  // bpftrace 0.17's kfunc/kretfunc are fentry/fexit since 0.20; both names are kept.
  CHECK(spec_of("kfunc:vfs_read").kind == ProbeKind::Fentry);
  s = spec_of("kretfunc:ext4:ext4_sync_fs");
  CHECK((s.kind == ProbeKind::Fexit && s.target == "ext4" && s.func == "ext4_sync_fs"));
  CHECK(spec_of("it:task").kind == ProbeKind::Iter);
  CHECK(spec_error("fentry:vfs_read+4").find("fentry cannot take an offset") == 0);
  // bpftrace 0.17's asyncwatchpoint (aw) is the watchpoint row, told apart by its provider.
  CHECK(spec_of("aw:increment+arg1:4:w").kind == ProbeKind::Watchpoint);
  CHECK(spec_of("asyncwatchpoint:0x10:8:w").kind == ProbeKind::Watchpoint);
  CHECK(spec_error("uprobe:/bin/x").find("uprobe needs a binary and a function") == 0);
}

TEST_CASE("syntax errors: position, caret under the span, several per run") {
  auto r = test::front_end("BEGIN {\n  $x = 1 +;\n  @y[] = 2;\n  printf(\"%d\\n\", $x);\n}\n", "s.bt");
  REQUIRE_FALSE(r.ok);
  CHECK(test::error_text(r).find("s.bt:2:11: error: expected an expression, found ';'\n  $x = 1 +;\n          ^\n") == 0);
  CHECK(test::error_text(r).find("s.bt:3:3: error: empty map key") != std::string::npos);
  CHECK(r.diagnostics.size() == 2);

  r = test::front_end("BEGIN { printf(\"unterminated); }");
  CHECK(test::error_text(r).find("1:16: error: unterminated string literal") != std::string::npos);
  r = test::front_end("BEGIN { $x = 99999999999999999999; }");
  CHECK(test::error_text(r).find("integer literal does not fit in 64 bits") != std::string::npos);
  r = test::front_end("/* never closed\nBEGIN {}");
  CHECK(test::error_text(r).find("1:1: error: unterminated comment") != std::string::npos);
  r = test::front_end("BEGIN { 1 = 2; }");
  CHECK(test::error_text(r).find("cannot assign to this expression") != std::string::npos);
}

TEST_CASE("semantic errors that bpftrace cannot show here: tracepoint args and several at once") {
  auto r = test::front_end("uretprobe:/bin/sh:main { @a = args->x; }\nBEGIN { @b = 1; @b = \"s\"; $q = $r; }");
  REQUIRE_FALSE(r.ok);
  CHECK(test::error_text(r).find("The args builtin can only be used with tracepoint and uprobe probes (uretprobe used here)") != std::string::npos);
  CHECK(test::error_text(r).find("Type mismatch for @b") != std::string::npos);
  CHECK(test::error_text(r).find("Undefined or undeclared variable: $r") != std::string::npos);
  r = test::front_end("uretprobe:/bin/sh:main { @r = retval; @f[func] = count(); @p[probe] = count(); }");
  CHECK_MESSAGE(r.ok, test::error_text(r));
  // printf's %s takes `probe` and `func` (bpftrace prints their text); a block may mix kernel
  // and user probes, since `func` is the point's own name, not a symbolized ip.
  r = test::front_end("uprobe:/bin/sh:main, uretprobe:/bin/sh:main { printf(\"%-20s|%s\\n\", probe, func); print(func); }");
  CHECK_MESSAGE(r.ok, test::error_text(r));
  r = test::front_end("kprobe:vfs_read, uprobe:/bin/sh:main { @[func] = count(); }");
  CHECK_MESSAGE(r.ok, test::error_text(r));
  r = test::front_end("BEGIN { while (1) { break; } continue; }");
  CHECK(test::error_text(r).find("continue used outside of a while loop") != std::string::npos);
  r = test::front_end("BEGIN { @x = pidd; }");
  CHECK(test::error_text(r).find("Unknown identifier: 'pidd'; did you mean 'pid'?") != std::string::npos);
  r = test::front_end("BEGIN { prinft(\"x\"); }");
  CHECK(test::error_text(r).find("Unknown function: prinft; did you mean 'printf' or 'print'?") != std::string::npos);
}

TEST_CASE("AST dump shows structure, compound assignment and types") {
  auto r = test::front_end("BEGIN /1/ { $x = 1; $x += 2 * 3; if ($x > 1) { @m[comm] = count(); } else if (1) { exit(); } }");
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  std::string dump = dump_ast(r.program.ast);
  CHECK(dump ==
        "Program\n"
        " probe BEGIN\n"
        "  predicate\n"
        "   int 1 :: int64\n"
        "  assign =\n"
        "   variable $x :: int64\n"
        "   int 1 :: int64\n"
        "  assign +=\n"
        "   variable $x :: int64\n"
        "   binary * :: int64\n"
        "    int 2 :: int64\n"
        "    int 3 :: int64\n"
        "  if\n"
        "   binary > :: bool\n"  // a comparison is a bool (bpftrace 0.22 on)
        "    variable $x :: int64\n"
        "    int 1 :: int64\n"
        "   then\n"
        "    assign =\n"
        "     map @m :: count\n"
        "      builtin comm :: string[16]\n"
        "     call count :: count\n"
        "   else\n"
        "    if\n"
        "     int 1 :: int64\n"
        "     then\n"
        "      call exit\n");
}

TEST_CASE("no input exhausts the stack: nesting is capped with an error") {
  std::string deep = "BEGIN { $x = " + std::string(100000, '(') + "1" + std::string(100000, ')') + "; }";
  auto r = test::front_end(deep);
  CHECK(test::error_text(r).find("nesting too deep") != std::string::npos);
  std::string chain = "BEGIN { $x = 1";
  for (int i = 0; i < 100000; ++i) chain += "+1";
  r = test::front_end(chain + "; }");
  CHECK(test::error_text(r).find("expression too deep") != std::string::npos);
  std::string unary = "BEGIN { $x = " + std::string(100000, '-') + "1; }";
  r = test::front_end(unary);
  CHECK(test::error_text(r).find("nesting too deep") != std::string::npos);
  std::string blocks = "BEGIN { ";
  for (int i = 0; i < 5000; ++i) blocks += "if (1) { ";
  r = test::front_end(blocks);
  CHECK(test::error_text(r).find("nesting too deep") != std::string::npos);
}

TEST_CASE("lexer: integer forms, escapes") {
  SourceFile src("t", "0x1F 1_000_000 \"a\\tb\\x41\\101\\\"\" $x @ @m u8");
  Lexer lex(src);
  CHECK(lex.next().value == 31);
  CHECK(lex.next().value == 1000000);
  CHECK(lex.next().text == "a\tbAA\"");
  CHECK(lex.next().text == "$x");
  CHECK(lex.next().text == "@");
  CHECK(lex.next().text == "@m");
  CHECK(lex.next().kind == Tok::Ident);
  CHECK(lex.next().kind == Tok::End);
  SourceFile bad("t", "1__0 1_ 0x \"\\q\"");
  Lexer l2(bad);
  CHECK(l2.next().kind == Tok::Integer);  // '_' between digits, even doubled, as bpftrace
  CHECK(l2.next().kind == Tok::Invalid);
  CHECK(l2.next().kind == Tok::Invalid);
  Token q = l2.next();
  CHECK(q.text == "unknown escape sequence '\\q' in string");
}
