// printf() output against bpftrace 0.17 itself: the same formats and argument values, printed
// by bpftrace from a BEGIN probe and by rawprobe's formatter from the bytes the code
// generator would write. Every byte must match.
#include <doctest/doctest.h>

#include "tests/kernel/output_oracle.h"

using namespace rawprobe;
using namespace rawprobe::oracle;

namespace {

struct PrintfCase {
  std::string fmt;  // the format as the script means it (escapes already applied)
  std::vector<Type> types;
  std::vector<Val> vals;
};

// Runs the cases as one bpftrace script and through PrintfFormatter; compares the output.
void check_cases(const std::vector<PrintfCase>& cases, OutputFormat format) {
  std::string script = "BEGIN {\n";
  Capture ours(format);
  ours.out().attached_probes(1);
  for (const PrintfCase& c : cases) {
    script += "  printf(" + quote(c.fmt);
    for (size_t k = 0; k < c.vals.size(); k++) script += ", " + expr(c.types[k], c.vals[k]);
    script += ");\n";
    auto formatter = PrintfFormatter::make(c.fmt, c.types);
    REQUIRE_MESSAGE(formatter.ok(), c.fmt, ": ", formatter.error().message());
    auto args = pack(c.types, c.vals);
    CHECK(formatter->args_size() == args.size());
    ours.out().printf_event(*formatter, args.data(), args.size());
  }
  script += "  exit();\n}\n";
  ours.out().exit_separator();
  std::string expected = run_bpftrace(script, format == OutputFormat::Json ? "json" : "text");
  REQUIRE_MESSAGE(!expected.empty(), "bpftrace printed nothing for:\n", script);
  std::string got = ours.text();
  if (got != expected) {
    // Point at the first differing line, to make failures readable.
    size_t at = 0;
    while (at < got.size() && at < expected.size() && got[at] == expected[at]) at++;
    size_t line_start = expected.rfind('\n', at ? at - 1 : 0);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    INFO("bpftrace: " << expected.substr(line_start, 160));
    INFO("rawprobe: " << got.substr(line_start, 160));
    CHECK(got == expected);
  }
}

Type i(uint32_t size) { return Type::integer(size, true); }
Type u(uint32_t size) { return Type::integer(size, false); }

// Typed values that exercise sign extension, truncation by length modifiers and widths.
const std::vector<std::pair<Type, int64_t>>& int_values() {
  static const std::vector<std::pair<Type, int64_t>> values = {
      {i(8), 0},           {i(8), -42},       {u(8), 4294967301},   {i(4), -1},
      {u(4), -1},          {i(2), -300},      {u(2), 65535},        {i(1), -128},
      {u(1), 200},         {i(8), 9223372036854775807}, {i(8), -4294967301}, {u(8), 42},
      {i(8), 1},           {u(4), 123456},    {i(8), -9223372036854775807},
  };
  return values;
}

}  // namespace

// Every case runs bpftrace 0.17, which only the build host has: the VM guest leaves
// the suite "host-only" out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("printf integer conversions, lengths, widths and precisions match bpftrace") {
  const char* convs[] = {"d", "u", "x", "X", "o", "p"};
  const char* lengths[] = {"", "hh", "h", "l", "ll", "j", "z", "t"};
  const char* widths[] = {"", "5", "-5", "05", ".3", "8.3", "-8.3", "020", ".0", "-020"};
  std::vector<PrintfCase> batch;
  size_t n = 0;
  const auto& values = int_values();
  for (const char* conv : convs) {
    for (const char* length : lengths) {
      for (const char* width : widths) {
        std::string spec = std::string("%") + width + length + conv;
        PrintfCase c{"[" + spec + "][" + spec + "][" + spec + "]\n", {}, {}};
        for (size_t k = 0; k < 3; k++) {
          const auto& [type, v] = values[(n * 3 + k) % values.size()];
          c.types.push_back(type);
          c.vals.push_back(I(v));
        }
        n++;
        batch.push_back(std::move(c));
        if (batch.size() == 40) {
          check_cases(batch, OutputFormat::Text);
          batch.clear();
        }
      }
    }
  }
  if (!batch.empty()) check_cases(batch, OutputFormat::Text);
}

TEST_CASE("printf %c and %s with widths and precisions match bpftrace") {
  std::vector<PrintfCase> cases;
  for (const char* width : {"", "3", "-3", "03"}) {
    std::string spec = std::string("%") + width + "c";
    cases.push_back({"<" + spec + spec + ">\n", {i(8), u(1)}, {I(65), I(122)}});
  }
  const char* strings[] = {"", "a", "abc", "hello world"};
  int k = 0;
  for (const char* width : {"", "10", "-10", ".2", "5.1", "-5.3", "05", ".0", "-1"}) {
    std::string spec = std::string("%") + width + "s";
    std::string s1 = strings[k++ % 4], s2 = strings[k++ % 4];
    cases.push_back({"<" + spec + "|" + spec + ">\n",
                     {Type::string(uint32_t(s1.size() + 1)), Type::string(16)},
                     {S(s1), S(s2)}});
  }
  check_cases(cases, OutputFormat::Text);
}

TEST_CASE("printf quirks: %% handling, swallowed conversions, NUL bytes, long output") {
  std::vector<PrintfCase> cases = {
      {"100%% done\n", {}, {}},
      {"%%d\n", {i(8)}, {I(5)}},
      {"%d%%|%d %% end%%\n", {i(8), i(8)}, {I(1), I(2)}},
      {"%5%%d\n", {i(8)}, {I(7)}},
      {"%c|x\n", {i(8)}, {I(0)}},
      {"a%cb%dc\n", {i(8), i(8)}, {I(0), I(5)}},
      {"%s|%s\n", {Type::string(1), Type::string(2)}, {S(""), S("x")}},
      {"%300d|\n", {i(8)}, {I(1)}},
      {"%-300s|\n", {Type::string(2)}, {S("a")}},
      {"%.200lx|\n", {u(8)}, {I(-1)}},
      {"no args at all\n", {}, {}},
      {"%d", {i(8)}, {I(3)}},
      {"\n", {}, {}},
  };
  check_cases(cases, OutputFormat::Text);
}

TEST_CASE("printf in -f json: escaping of quotes, control and high bytes") {
  std::vector<PrintfCase> cases = {
      {"tab\there \"q\" \\ %s\n", {Type::string(4)}, {S("x\"y")}},
      {"ctl \x01\x1f\x7f|%s\n", {Type::string(8)}, {S("a\x02z")}},
      {"utf8 \xc3\xa9 %c\n", {i(8)}, {I(200)}},
      {"100%% %d%%\r\n", {i(8)}, {I(-5)}},
  };
  check_cases(cases, OutputFormat::Json);
}

TEST_SUITE_END();
