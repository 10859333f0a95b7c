// The script preprocessor against gcc's cpp: the same input through both, compared token by
// token (spacing differs and does not matter). Covers macro expansion (the C standard's own
// examples), conditionals, #if arithmetic over a few hundred generated expressions, include
// search, the macros each architecture predefines (against each cross gcc's `cpp -dM`), and
// the built-in <sys/socket.h> constants (against the system's header).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>

#include "engine/lang/pp_token.h"
#include "engine/lang/preprocess.h"
#include "engine/lang/preprocess_include.h"
#include "tests/unit/arch_oracle.h"
#include "tests/unit/lang_fixture.h"

namespace rawprobe::lang {
namespace {

std::string joined(const std::vector<std::string>& tokens) {
  std::string s;
  for (const std::string& t : tokens) s += (s.empty() ? "" : " ") + t;
  return s;
}

struct Both {
  bool cpp_ok = false, ours_ok = false;
  std::vector<std::string> cpp, ours;
  std::string cpp_output, our_errors;
};

// `text` through `cpp -P` and through ours, both reading it as a file in a scratch directory.
Both through_both(const std::string& text, const std::string& cpp_flags = "", PreprocessOptions options = {}) {
  test::ScratchDir scratch;
  std::filesystem::path input = scratch.path() / "input.bt";
  std::ofstream(input) << text;
  Both b;
  std::filesystem::path err = scratch.path() / "cpp.err";
  test::CommandResult cpp = test::run_command("cpp -P " + cpp_flags + " " + input.string() + " 2>" + err.string(), false);
  b.cpp_ok = cpp.status == 0;
  // What cpp said is kept for a failed check's message, not printed on every expected refusal.
  b.cpp_output = b.cpp_ok ? cpp.output : test::run_command("cat " + err.string(), false).output;
  b.cpp = pp_token_texts(cpp.output);
  if (options.system_dirs.empty()) options.system_dirs = {"/nonexistent/rawprobe-test-include"};
  PreprocessResult ours = preprocess(input.string(), text, options);
  b.ours_ok = ours.ok;
  b.our_errors = test::error_text(ours);
  b.ours = pp_token_texts(ours.source.text());
  return b;
}

// Inside a probe's block, where the script's macros expand (probe specs are left alone).
std::string in_block(const std::string& text) { return "BEGIN {\n" + text + "}\n"; }

void check_same(const std::string& text) {
  CAPTURE(text);
  Both b = through_both(in_block(text));
  REQUIRE_MESSAGE(b.cpp_ok, b.cpp_output);
  REQUIRE_MESSAGE(b.ours_ok, b.our_errors);
  CHECK(joined(b.ours) == joined(b.cpp));
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("macro expansion gives what gcc's cpp gives") {
  // C11 6.10.3.5 EXAMPLE 3: rescanning, hide sets, '#' and '##', empty arguments.
  check_same(
      "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\n"
      "#define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\n#define p() int\n"
      "#define q(x) x\n#define r(x,y) x ## y\n#define str(x) # x\n"
      "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\n"
      "g(x+(3,4)-w) | h 5) & m\n(f)^m(m);\n"
      "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n"
      "char c[2][6] = { str(hello), str() };\n");
  // EXAMPLE 4: stringizing and pasting together.
  check_same(
      "#define str(s) # s\n#define xstr(s) str(s)\n"
      "#define debug(s, t) printf(\"x\" # s \"= %d, x\" # t \"= %s\", x ## s, x ## t)\n"
      "#define INCFILE(n) vers ## n\n#define glue(a, b) a ## b\n#define xglue(a, b) glue(a, b)\n"
      "#define HIGHLOW \"hello\"\n#define LOW LOW \", world\"\n"
      "debug(1, 2);\nfputs(str(strncmp(\"abc\\0d\", \"abc\", '\\4') == 0) str(: @\\n), s);\n"
      "xstr(INCFILE(2).h)\nglue(HIGH, LOW);\nxglue(HIGH, LOW)\n");
  // EXAMPLE 5: placemarkers.
  check_same("#define t(x,y,z) x ## y ## z\nint j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n"
             "t(10,,), t(,11,), t(,,12), t(,,) };\n");
  // EXAMPLE 7: variadic macros, and GNU's named variadic parameter and `, ## args`.
  check_same(
      "#define debug(...) fprintf(stderr, __VA_ARGS__)\n#define showlist(...) puts(#__VA_ARGS__)\n"
      "#define report(test, ...) ((test)?puts(#test): printf(__VA_ARGS__))\n"
      "debug(\"Flag\");\ndebug(\"X = %d\\n\", x);\nshowlist(The first, second, and third items.);\n"
      "report(x>y, \"x is %d but y is %d\", x, y);\n"
      "#define G(fmt, args...) printf(fmt, ## args)\nG(\"a\") G(\"b\", 1, 2)\n");
  // A script's own use: object-like macros in a probe body, arguments over several lines.
  check_same(
      "#define TASK_RUNNING 0\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
      "kprobe:f /TASK_RUNNING == 0/ { $m = MAX(1,\n  2); $recursive = MAX(MAX(3, 4), 5); }\n");
}

TEST_CASE("conditionals nest and choose the branch gcc's cpp chooses") {
  check_same(
      "#define A 1\n#define B 0\n#if A\n#if B\nno1\n#elif A + B == 1\nyes1\n#else\nno2\n#endif\n"
      "#ifdef B\nyes2\n#endif\n#ifndef C\nyes3\n#if defined C || defined(A) && !defined B\nno3\n"
      "#elif defined(B)\nyes4\n#endif\n#else\nno4\n#endif\n#else\n#error not taken\n#endif\n"
      "#if 0\n#if garbage ((( \n#frobnicate\n#endif\n#else\nyes5\n#endif\n"
      "#undef A\n#ifdef A\nno5\n#endif\n");
}

TEST_CASE("#if arithmetic agrees with gcc's cpp on generated expressions") {
  std::mt19937 rng(20261206);  // fixed: a failure reproduces
  auto pick = [&](int n) { return int(rng() % unsigned(n)); };
  const char* atoms[] = {"0", "1", "2", "7", "100", "-1", "0x7fffffffffffffff", "0xffffffffffffffff",
                         "18446744073709551615", "9223372036854775807", "017", "0b101", "5u", "3UL",
                         "10ll", "0xffULL", "'a'", "'\\n'", "'\\xff'", "'\\377'", "'\\0'", "A", "NEG",
                         "BIG", "UNDEFINED", "defined(A)", "defined B", "defined UNDEFINED", "F(3)"};
  const char* unary[] = {"-", "+", "~", "!"};
  const char* binary[] = {"*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=",
                          "&", "^", "|", "&&", "||"};
  std::function<std::string(int)> expr = [&](int depth) -> std::string {
    int kind = depth > 3 ? 0 : pick(6);
    if (kind == 0 || kind == 1) return atoms[pick(int(std::size(atoms)))];
    if (kind == 2) return std::string(unary[pick(4)]) + "(" + expr(depth + 1) + ")";
    if (kind == 5) return "(" + expr(depth + 1) + " ? " + expr(depth + 1) + " : " + expr(depth + 1) + ")";
    std::string op = binary[pick(int(std::size(binary)))];
    std::string right = expr(depth + 1);
    // A right side that may be 0 is made odd, so no evaluated division by zero stops cpp.
    if (op == "/" || op == "%") right = "((" + right + ") | 1)";
    if (op == "<<" || op == ">>") right = "((" + right + ") & 127) - 32";  // counts past 64 and below 0
    return "(" + expr(depth + 1) + " " + op + " " + right + ")";
  };
  std::string text = "#define A 3\n#define NEG -5\n#define BIG 0xfffffffffffffff0ULL\n#define F(x) ((x) * 2)\n";
  const int kExpressions = 400;
  for (int i = 0; i < kExpressions; ++i)
    text += "#if " + expr(0) + "\nr" + std::to_string(i) + "_true\n#else\nr" + std::to_string(i) + "_false\n#endif\n";
  Both b = through_both(text, "-w");
  REQUIRE_MESSAGE(b.cpp_ok, b.cpp_output);
  REQUIRE_MESSAGE(b.ours_ok, b.our_errors);
  REQUIRE(b.cpp.size() == size_t(kExpressions));
  REQUIRE(b.ours.size() == b.cpp.size());
  int differ = 0;
  for (size_t i = 0; i < b.cpp.size(); ++i)
    if (b.ours[i] != b.cpp[i]) {
      ++differ;
      MESSAGE("expression " << i << ": cpp says " << b.cpp[i] << ", rawprobe " << b.ours[i]);
    }
  CHECK(differ == 0);
}

TEST_CASE("what gcc's cpp refuses, rawprobe refuses") {
  const char* bad[] = {
      "#endif\n", "#if 1\n", "#else\n", "#if 1\n#else\n#else\n#endif\n", "#if 1 +\n#endif\n",
      "#if (1\n#endif\n", "#if 1 / 0\n#endif\n", "#define F(a, a) a\n", "#define F(a\n",
      "#define F(x) #y\n", "#define F(x) ## x\n", "#define F(x) F(1, 2)\nF(1, 2)\n",
      "#define F(x) x\nF(1\n", "#include \"does-not-exist.h\"\n", "#error stop\n", "#if 1.5\n#endif\n",
      "#if \"s\"\n#endif\n", "#define defined 1\n", "#if 0x\n#endif\n", "#if 09\n#endif\n",
  };
  for (const char* text : bad) {
    CAPTURE(text);
    Both b = through_both(in_block(text));
    CHECK_FALSE(b.cpp_ok);
    CHECK_FALSE(b.ours_ok);
  }
}

TEST_CASE("quoted and -I includes resolve as gcc's cpp resolves them") {
  test::ScratchDir dir;
  std::filesystem::create_directories(dir.path() / "one");
  std::filesystem::create_directories(dir.path() / "two");
  std::ofstream(dir.path() / "one" / "a.h") << "#define WHICH_A one\n#include \"b.h\"\n";
  std::ofstream(dir.path() / "one" / "b.h") << "#define WHICH_B one_beside_a\n";
  std::ofstream(dir.path() / "two" / "a.h") << "#define WHICH_A two\n";
  std::ofstream(dir.path() / "two" / "b.h") << "#define WHICH_B two\n";
  std::ofstream(dir.path() / "two" / "c.h") << "#define WHICH_C two\n";
  std::string text = in_block("#include \"a.h\"\n#include \"c.h\"\nWHICH_A WHICH_B WHICH_C\n");
  std::string flags = "-I" + (dir.path() / "one").string() + " -I" + (dir.path() / "two").string();
  PreprocessOptions options;
  options.include_dirs = {(dir.path() / "one").string(), (dir.path() / "two").string()};
  Both b = through_both(text, flags, options);
  REQUIRE(b.cpp_ok);
  REQUIRE_MESSAGE(b.ours_ok, b.our_errors);
  CHECK(joined(b.ours) == joined(b.cpp));
}

// What a script's `{ NAME }` became: the tokens between the braces.
std::string value_in_block(const std::string& text) {
  std::vector<std::string> tokens = pp_token_texts(text);
  if (tokens.size() < 2) return "";
  return joined(std::vector<std::string>(tokens.begin() + 1, tokens.end() - 1));
}

// gcc -dM for an architecture: NAME -> VALUE of every predefined macro.
std::map<std::string, std::string> gcc_predefined(const std::string& cpp) {
  std::map<std::string, std::string> macros;
  test::CommandResult r = test::run_command(cpp + " -dM - </dev/null 2>/dev/null", false);
  if (r.status != 0) return macros;
  std::istringstream lines(r.output);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.starts_with("#define ")) continue;
    size_t name_end = line.find(' ', 8);
    macros[line.substr(8, name_end - 8)] = name_end == std::string::npos ? "" : line.substr(name_end + 1);
  }
  return macros;
}

TEST_CASE("each architecture's predefined macros are what its gcc predefines") {
  const std::pair<std::string, std::string> compilers[] = {
      {"x86_64", "x86_64-linux-gnu-cpp"},         {"i386", "i686-linux-gnu-cpp"},
      {"aarch64", "aarch64-linux-gnu-cpp"},       {"arm", "arm-linux-gnueabihf-cpp"},
      {"riscv64", "riscv64-linux-gnu-cpp"},       {"ppc64le", "powerpc64le-linux-gnu-cpp"},
      {"s390x", "s390x-linux-gnu-cpp"},           {"mips64", "mips64el-linux-gnuabi64-cpp"},
      {"loongarch64", "loongarch64-linux-gnu-cpp"},
  };
  int checked = 0;
  for (const auto& entry : compilers) {
    const std::string& name = entry.first;
    const std::string& cpp = entry.second;
    const arch::Table* table = arch::by_name(name);
    REQUIRE(table);
    std::map<std::string, std::string> gcc = gcc_predefined(cpp);
    if (gcc.empty()) {
      MESSAGE(cpp << " is not installed: " << name << "'s predefined macros are not checked");
      continue;
    }
    CHECK(!table->cpp_macros.empty());
    std::string ours = predefined_macros(*table, false);
    for (const std::string& line : [&] {
           std::vector<std::string> v;
           std::istringstream in(ours);
           for (std::string l; std::getline(in, l);) v.push_back(l);
           return v;
         }()) {
      std::vector<std::string> words = pp_token_texts(line);
      REQUIRE(words.size() >= 4);  // # define NAME VALUE
      CAPTURE(name);
      CAPTURE(line);
      REQUIRE(gcc.count(words[2]));
      CHECK(gcc[words[2]] == words[3]);
    }
    ++checked;
  }
  CHECK(checked >= 8);
}

TEST_CASE("the built-in <sys/socket.h> constants are the system header's") {
  // What the fallback defines, and the same names through the real <sys/socket.h> by gcc.
  std::vector<std::string> names;
  {
    std::vector<std::string> tokens = pp_token_texts(builtin_header("sys/socket.h"));
    for (size_t i = 0; i + 2 < tokens.size(); ++i)
      if (tokens[i] == "#" && tokens[i + 1] == "define") names.push_back(tokens[i + 2]);
  }
  REQUIRE(names.size() >= 2);
  std::string uses = "#include <sys/socket.h>\n{\n";
  for (const std::string& n : names) uses += n + "\n";
  uses += "}\n";
  test::ScratchDir dir;
  std::ofstream(dir.path() / "uses.c") << uses;
  test::CommandResult real = test::run_command("cpp -P " + (dir.path() / "uses.c").string() + " | tail -n " + std::to_string(names.size() + 1) + " | head -n " + std::to_string(names.size()), false);
  REQUIRE(real.status == 0);
  std::vector<std::string> real_values = pp_token_texts(real.output);
  // With no include directory at all, the built-in copy answers.
  PreprocessOptions none;
  none.system_dirs = {"/nonexistent/rawprobe-test-include"};
  PreprocessResult fallback = preprocess("uses.bt", uses, none);
  REQUIRE(fallback.ok);
  CHECK(joined(pp_token_texts(fallback.source.text())) == "{ " + joined(real_values) + " }");
  REQUIRE(fallback.notes.size() == 1);
  // With the system's directories, rawprobe reads the real header (macros only) to the same end.
  PreprocessResult system = preprocess("uses.bt", uses, {});
  REQUIRE_MESSAGE(system.ok, test::error_text(system));
  CHECK(joined(pp_token_texts(system.source.text())) == "{ " + joined(real_values) + " }");
  for (const std::string& note : system.notes) CHECK(note.find("built-in") == std::string::npos);
}

TEST_CASE("the kernel macros added where BTF gives the types are the kernel source's") {
  // The kernel source Debian ships (linux-source, in tests/install-packages).
  test::CommandResult tarball = test::run_command("ls /usr/src/linux-source-*.tar.xz | sort -V | tail -n 1", false);
  std::string tar = tarball.output.substr(0, tarball.output.find('\n'));
  REQUIRE_MESSAGE(!tar.empty(), "linux-source is not installed");
  std::string top = tar.substr(tar.rfind('/') + 1);
  top = top.substr(0, top.find(".tar"));
  for (const char* header : {"linux/sched.h"}) {
    CAPTURE(header);
    std::vector<std::string> tokens = pp_token_texts(kernel_macros_beyond_btf(header));
    test::CommandResult source = test::run_command("tar -xJOf " + tar + " " + top + "/include/" + header, false);
    REQUIRE(source.status == 0);
    for (size_t i = 0; i + 3 < tokens.size(); ++i) {
      if (tokens[i] != "#" || tokens[i + 1] != "define") continue;
      const std::string& name = tokens[i + 2];
      CAPTURE(name);
      // The kernel's definition, as its header writes it, against what a script sees from ours.
      std::smatch m;
      std::regex def("\\n#define[ \\t]+" + name + "[ \\t]+([^\\n]*)");
      REQUIRE(std::regex_search(source.output, m, def));
      PreprocessOptions btf;
      btf.have_btf = true;
      btf.system_dirs = {"/nonexistent/rawprobe-test-include"};
      PreprocessResult ours = preprocess("k.bt", std::string("#include <") + header + ">\n{ " + name + " }\n", btf);
      REQUIRE(ours.ok);
      test::ScratchDir dir;
      std::ofstream(dir.path() / "cmp.c") << "#if (" << m[1] << ") == (" << value_in_block(ours.source.text()) << ")\nSAME\n#endif\n";
      test::CommandResult same = test::run_command("cpp -P " + (dir.path() / "cmp.c").string(), false);
      CHECK(pp_token_texts(same.output) == std::vector<std::string>{"SAME"});
    }
  }
}

TEST_SUITE_END();

}  // namespace rawprobe::lang
