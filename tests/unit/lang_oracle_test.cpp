// The front end against bpftrace 0.17 as an oracle (root only; bpftrace needs it even for
// programs that fail to check): operator precedence and integer typing by evaluating the
// same expressions, printf record layout from bpftrace's LLVM IR, and error positions and
// messages.
#include <doctest/doctest.h>

#include "tests/skip.h"
#include <unistd.h>

#include <regex>

#include "engine/lang/ast_dump.h"
#include "tests/unit/arch_oracle.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::lang;

namespace {

bool have_bpftrace() {
  if (geteuid() != 0) return false;
  return test::run_command("command -v bpftrace").status == 0;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

test::CommandResult bpftrace(const std::string& args, bool with_stderr = true) {
  return test::run_command("timeout 60 bpftrace " + args + (with_stderr ? "" : " 2>/dev/null"), with_stderr);
}

// Evaluates a constant integer expression of the checked AST with the semantics the types
// say: 64-bit arithmetic, signed division/shift/comparison only where the type is signed.
uint64_t eval(const Expr& e) {
  auto signed_pair = [&] { return e.operands[0]->type.is_signed && e.operands[1]->type.is_signed; };
  switch (e.kind) {
    case ExprKind::Integer: return e.int_value;
    case ExprKind::Cast: {
      uint64_t v = eval(*e.operands[0]);
      unsigned bits = e.cast_type.size * 8;
      if (bits == 64) return v;
      v &= (uint64_t{1} << bits) - 1;
      if (e.cast_type.is_signed && (v >> (bits - 1))) v |= ~((uint64_t{1} << bits) - 1);
      return v;
    }
    case ExprKind::Unary: {
      uint64_t v = eval(*e.operands[0]);
      if (e.op == Op::LogNot) return v == 0;
      // Computed at the operand's width, then zero-extended (see ast.h, ExprKind::Unary).
      uint64_t r = e.op == Op::Neg ? -v : ~v;
      unsigned bits = e.operands[0]->type.size * 8;
      return bits >= 64 ? r : r & ((uint64_t{1} << bits) - 1);
    }
    case ExprKind::Ternary: return eval(*e.operands[0]) ? eval(*e.operands[1]) : eval(*e.operands[2]);
    case ExprKind::Binary: {
      uint64_t a = eval(*e.operands[0]), b = eval(*e.operands[1]);
      int64_t sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
      bool s = signed_pair();
      switch (e.op) {
        case Op::Add: return a + b;
        case Op::Sub: return a - b;
        case Op::Mul: return a * b;
        case Op::Div: return s ? static_cast<uint64_t>(sa / sb) : a / b;
        case Op::Mod: return s ? static_cast<uint64_t>(sa % sb) : a % b;
        case Op::BitAnd: return a & b;
        case Op::BitOr: return a | b;
        case Op::BitXor: return a ^ b;
        case Op::Shl: return a << b;
        case Op::Shr: return s ? static_cast<uint64_t>(sa >> b) : a >> b;
        case Op::Eq: return a == b;
        case Op::Ne: return a != b;
        case Op::Lt: return s ? sa < sb : a < b;
        case Op::Gt: return s ? sa > sb : a > b;
        case Op::Le: return s ? sa <= sb : a <= b;
        case Op::Ge: return s ? sa >= sb : a >= b;
        case Op::LogAnd: return a && b;
        case Op::LogOr: return a || b;
        default: break;
      }
      break;
    }
    default: break;
  }
  FAIL("not a constant expression: " << dump_expr(e));
  return 0;
}

std::vector<std::string> output_lines(const std::string& out) {
  std::vector<std::string> lines;
  std::stringstream ss(out);
  std::string line;
  while (std::getline(ss, line))
    if (!line.empty() && line.find("Attaching") != 0 && line.find("RLIMIT") == std::string::npos) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("operator precedence and integer typing agree with bpftrace's evaluation") {
  if (!have_bpftrace()) {
    RAWPROBE_SKIP("needs root and bpftrace");
    return;
  }
  const std::vector<std::string> exprs = {
      "1 + 2 * 3", "(1 + 2) * 3", "10 - 4 - 3", "2 * 3 % 4", "1 << 2 + 1", "1 + 2 << 3",
      "6 & 3 | 8", "6 ^ 3 & 1", "1 | 2 ^ 3", "5 > 3 == 1", "1 < 2 == 3 > 4", "1 == 1 && 0 || 1",
      "0 || 1 && 0", "!0 + 1", "~0 & 0xff", "-3 + 10", "0x10 + 1_000", "(uint8)300 + 1",
      "(int8)200", "(uint16)-1", "100 / 7 * 7", "(1 + 2) * (3 + 4) - 5 % 3", "3 - -2",
      "!5 == 0", "~(uint8)0", "1 ? 7 : 9", "0 ? 7 : 1 ? 8 : 9", "(int8)-1 < 0", "(uint8)255 > (int8)-1",
      "(uint32)-1 > 0", "1 - 2 > 0", "20 >> 2 >> 1", "(int16)-8 >> 1", "~5 + 1 == -5", "2 * -3 < -5 + 0", "-(uint8)1", "~(int16)0", "-(uint16)0",
  };
  std::string program = "BEGIN {";
  for (const std::string& e : exprs) program += " printf(\"%d\\n\", " + e + ");";
  program += " exit(); }";
  auto r = test::front_end(program);
  REQUIRE_MESSAGE(r.ok, test::error_text(r));
  auto oracle = bpftrace("-e " + shell_quote(program), false);  // warnings go to stderr
  std::vector<std::string> lines = output_lines(oracle.output);
  REQUIRE_MESSAGE(lines.size() == exprs.size(), oracle.output);
  const auto& body = r.program.ast.probes[0].body;
  for (size_t i = 0; i < exprs.size(); ++i) {
    const Expr& call = *body[i]->expr;
    int64_t ours = static_cast<int64_t>(eval(*call.operands[1]));
    CHECK_MESSAGE(std::to_string(ours) == lines[i], exprs[i] << "\n" << dump_expr(*call.operands[1]));
  }
}

TEST_CASE("printf records are laid out as bpftrace lays them out") {
  if (!have_bpftrace()) {
    RAWPROBE_SKIP("needs root and bpftrace");
    return;
  }
  const std::vector<std::string> calls = {
      R"(printf("%s %d %c %s\n", "ab", (uint8)1, 65, comm))",
      R"(printf("%d %s %d\n", pid, "abcdefghij", (int16)-1))",
      R"(printf("%s%s%x\n", comm, "x", nsecs))",
  };
  for (const std::string& c : calls) {
    std::string program = "BEGIN { " + c + "; }";
    auto r = test::front_end(program);
    REQUIRE_MESSAGE(r.ok, test::error_text(r));
    const PrintfInfo& p = r.program.info.printfs.at(0);
    std::string ours = "{ i64";
    for (const PrintfArg& a : p.args)
      ours += a.type.is_string() ? ", [" + std::to_string(a.type.size) + " x i8]" : ", i" + std::to_string(a.type.size * 8);
    ours += " }";
    auto oracle = bpftrace("-d -e " + shell_quote(program));
    std::smatch m;
    REQUIRE_MESSAGE(std::regex_search(oracle.output, m, std::regex(R"(%printf_t = type (\{[^}]*\}))")), oracle.output);
    CHECK(ours == m[1].str());
    // The record size is perf_event_output's last argument.
    REQUIRE(std::regex_search(oracle.output, m, std::regex(R"(perf_event_output = call .*i64 (\d+)\))")));
    CHECK(std::to_string(p.record_size) == m[1].str());
  }
}

TEST_CASE("semantic and syntax errors match bpftrace's position and message") {
  if (!have_bpftrace()) {
    RAWPROBE_SKIP("needs root and bpftrace");
    return;
  }
  // Each script fails in bpftrace; our first error must be at the same line:col and start
  // with bpftrace's text (ours may add a suggestion, or a closing quote bpftrace forgets).
  const std::vector<std::string> scripts = {
      R"(BEGIN { printf("%d\n", $y); exit(); })",
      R"(BEGIN { foo(1); exit(); })",
      R"(BEGIN { printf("%d %d\n", 1); exit(); })",
      R"(BEGIN { printf("%d\n", 1, 2); exit(); })",
      R"(BEGIN { @a[1] = 1; @a["x"] = 2; exit(); })",
      R"(BEGIN { @a = 1; @a = "x"; exit(); })",
      R"(BEGIN { $x = 1; $x = "a"; exit(); })",
      R"(BEGIN { if ("a" == 1) {} exit(); })",
      R"(BEGIN { @x = count(); @x = 1; exit(); })",
      R"(BEGIN { printf("%d\n", "x"); exit(); })",
      R"(BEGIN { printf("%s\n", 1); exit(); })",
      R"(BEGIN { printf("%d\n", retval); exit(); })",
      R"(BEGIN { printf("%d\n", arg0); exit(); })",
      R"(BEGIN { delete(1); exit(); })",
      R"(BEGIN { @a = count(); @b = sum("x"); exit(); })",
      R"(BEGIN { $x = str(1, 2, 3); exit(); })",
      R"(BEGIN { time(1); exit(); })",
      R"(BEGIN { -"a"; exit(); })",
      R"(BEGIN { $x = 1 + "a"; exit(); })",
      R"(BEGIN { $x; exit(); })",
      R"(BEGIN { $x = count(); })",
      R"(BEGIN { clear(@x[1]); })",
      R"(BEGIN { unroll(0) { } exit(); })",
      R"(BEGIN { unroll(101) { } exit(); })",
      R"(BEGIN { delete(@nope[1]); exit(); })",
      R"(BEGIN { $x = @nope; exit(); })",
      R"(BEGIN { printf(1); exit(); })",
      R"(BEGIN { @seen = count(); if (@seen == 3) { exit(); } })",
      "BEGIN {\n  $a = 1;\n  $a = comm;\n}",
      R"(tracepoint:syscalls:sys_enter_read { printf("%d\n", args->nope); exit(); })",
      R"(tracepoint:syscalls:sys_enter_read { printf("%d\n", retval); exit(); })",
      // (`interval:1` and `profile:99`, which 0.17 refuses, are 0.26's nanosecond periods.)
      // `probe` and `func` are strings to printf: %s takes them, integer conversions do not.
      R"(uprobe:/bin/sh:main { printf("%d\n", func); exit(); })",
      R"(uprobe:/bin/sh:main { printf("%c\n", probe); exit(); })",
      R"(uprobe:/bin/sh:main { printf("%s\n", (probe, 1)); exit(); })",
      R"(tracepoint:syscalls:sys_enter_read { printf("%s\n", func); exit(); })",
      R"(usdt:/bin/sh:x:y { printf("%s\n", func); exit(); })",
      // Stacks and symbols: modes, limits, argument kinds; they are strings to printf.
      R"(BEGIN { $x = kstack(2000); exit(); })",
      R"(BEGIN { $x = ustack("x"); exit(); })",
      R"(BEGIN { $x = kstack(1, 2); exit(); })",
      R"(BEGIN { $x = kstack(perf, 2, 3); exit(); })",
      R"(BEGIN { $x = kstack(perf, pid); exit(); })",
      R"(BEGIN { $x = ksym("a"); exit(); })",
      R"(BEGIN { printf("%d\n", kstack); exit(); })",
      R"(BEGIN { printf("%d\n", usym(1)); exit(); })",
  };
  std::regex line_re(R"(stdin:(\d+):(\d+)(-\d+)?: ERROR: (.*))");
  for (const std::string& s : scripts) {
    if (s.find("tracepoint:") == 0 && !test::tracefs_readable()) continue;
    auto oracle = bpftrace("-e " + shell_quote(s));
    std::smatch m;
    REQUIRE_MESSAGE(std::regex_search(oracle.output, m, line_re), s << "\n" << oracle.output);
    std::string want_pos = m[1].str() + ":" + m[2].str() + ":";
    std::string want_msg = m[4].str();
    auto r = test::front_end(s, "stdin");
    REQUIRE_MESSAGE(!r.ok, s);
    const std::string& first = test::error_text(r).substr(0, test::error_text(r).find('\n'));
    INFO(s);
    INFO("bpftrace: " << m[0].str());
    INFO("ours:     " << first);
    CHECK(first.find("stdin:" + want_pos + " error: ") == 0);
    // bpftrace names the kfunc probes we do not have; compare up to that point.
    std::string prefix = want_msg.substr(0, want_msg.find(" and 'kfunc'"));
    prefix = prefix.substr(0, prefix.find(": [unsigned int64"));  // its key types: see report
    CHECK(first.find(prefix) != std::string::npos);
  }
}
