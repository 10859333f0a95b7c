// The script preprocessor without an oracle: what it must keep of the script as written (the
// "#!" line, positions after directives, includes and expansions, map names), where its errors
// point, and how include search and BTF decide about headers. Every expected position is
// computed from the input text; what the expansion itself gives is checked against gcc's cpp
// in lang_preprocess_oracle_test.cpp.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "engine/lang/frontend.h"
#include "engine/lang/pp_token.h"
#include "engine/lang/preprocess.h"
#include "engine/lang/preprocess_include.h"
#include "tests/unit/arch_oracle.h"
#include "tests/unit/lang_fixture.h"

namespace rawprobe::lang {
namespace {

// No system directories: what a test includes, it writes.
PreprocessResult run(const std::string& text, PreprocessOptions options = {}, const std::string& name = "t.bt") {
  if (options.system_dirs.empty()) options.system_dirs = {"/nonexistent/rawprobe-test-include"};
  return preprocess(name, text, options);
}

// "NAME:LINE:COL: error: " of the first occurrence of `needle` in `text`.
std::string where(const std::string& name, const std::string& text, const std::string& needle, size_t shift = 0) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  LineCol lc = line_col(text, uint32_t(at + shift));
  return name + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": error: ";
}

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("a first line starting with #! is skipped and later lines keep their numbers") {
  std::string script = "#!/usr/bin/env rawprobe\n// a tool\nBEGIN { $x = ; }\n";
  PreprocessResult r = run(script);
  REQUIRE(r.ok);
  CHECK(r.source.text().find("#!") == std::string::npos);
  FrontEndResult f = run_front_end(r.source, {});
  REQUIRE_FALSE(f.ok);
  CHECK(test::error_text(f).find(where("t.bt", script, "; }")) == 0);
  // Anywhere else "#!" is a directive rawprobe does not know.
  PreprocessResult later = run("BEGIN {}\n#!/bin/sh\n");
  CHECK_FALSE(later.ok);
}

TEST_CASE("text without directives or macros reaches the lexer unchanged") {
  std::string script = "kprobe:vfs_read /pid == 1/ { @x[comm] = count(); $y = 1e6; printf(\"%s\\n\", \"#x\"); }\n";
  PreprocessResult r = run(script);
  REQUIRE(r.ok);
  CHECK(r.source.text() == script);
}

TEST_CASE("directive lines vanish from the text but every later error keeps its line and column") {
  std::string script =
      "#ifndef BPFTRACE_HAVE_BTF\n#define ANSWER 42\n#else\n#define ANSWER 41\n#endif\n"
      "/*\n#define NOT_A_DIRECTIVE 1\n*/\n"
      "BEGIN {\n  printf(\"%d\\n\", ANSWER);\n  $z = @;\n}\n";
  PreprocessResult r = run(script);
  REQUIRE(r.ok);
  CHECK(r.source.text().find("ANSWER") == std::string::npos);
  CHECK(r.source.text().find("#define NOT_A_DIRECTIVE") != std::string::npos);  // kept, inside its comment
  FrontEndResult f = run_front_end(r.source, {});
  REQUIRE_FALSE(f.ok);
  CHECK(test::error_text(f).find(where("t.bt", script, "@;")) == 0);
}

TEST_CASE("an error inside a macro's expansion points at the macro's use") {
  std::string script = "#define BAD (1 +)\nBEGIN {\n  $x = BAD;\n}\n";
  PreprocessResult r = run(script);
  REQUIRE(r.ok);
  FrontEndResult f = run_front_end(r.source, {});
  REQUIRE_FALSE(f.ok);
  std::string expect = where("t.bt", script, "BAD;");
  CHECK(test::error_text(f).find(expect) == 0);
  // The caret underlines the use as written.
  CHECK(test::error_text(f).find("\n  $x = BAD;\n       ^~~\n") != std::string::npos);
}

TEST_CASE("BPFTRACE_HAVE_BTF is defined exactly when the kernel has BTF") {
  std::string script = "#ifdef BPFTRACE_HAVE_BTF\nBTF_YES\n#else\nBTF_NO\n#endif\n";
  PreprocessOptions with;
  with.have_btf = true;
  CHECK(run(script, with).source.text().find("BTF_YES") != std::string::npos);
  CHECK(run(script, {}).source.text().find("BTF_NO") != std::string::npos);
  CHECK(kernel_has_btf() == std::filesystem::exists("/sys/kernel/btf/vmlinux"));
}

TEST_CASE("map names are not expanded, as bpftrace 0.17 lexes @NAME as one token") {
  std::string script = "#define M 5\nBEGIN { @M = M; $M = 1; }\n";
  PreprocessResult r = run(script);
  REQUIRE(r.ok);
  std::vector<std::string> tokens = pp_token_texts(r.source.text());
  // The map and the variable stay; only the bare use became the macro's value.
  CHECK(std::count(tokens.begin(), tokens.end(), "M") == 1);
  CHECK(std::count(tokens.begin(), tokens.end(), "$M") == 1);
  CHECK(std::count(tokens.begin(), tokens.end(), "5") == 1);
}

TEST_CASE("probe specs are not expanded, predicates and blocks are") {
  std::string script =
      "#define TARGET 42\n"
      "uprobe:/usr/lib/x86_64-linux-gnu/libc.so.6:TARGET /pid == TARGET/ { $x = TARGET; }\n"
      "struct s { int a; }\n"
      "END /TARGET/ { $y = linux; }\n";
  PreprocessResult r = run(script);
  REQUIRE(r.ok);
  std::vector<std::string> tokens = pp_token_texts(r.source.text());
  // The spec keeps `linux` and `TARGET`; both predicates and both blocks have 42 / 1.
  CHECK(r.source.text().find("x86_64-linux-gnu/libc.so.6:TARGET /") != std::string::npos);
  CHECK(std::count(tokens.begin(), tokens.end(), "TARGET") == 1);
  CHECK(std::count(tokens.begin(), tokens.end(), "42") == 3);
  CHECK(std::count(tokens.begin(), tokens.end(), "linux") == 1);  // the path's, not the block's
}

TEST_CASE("quoted includes are searched beside the includer, then -I; their text is kept with its own positions") {
  test::ScratchDir dir;
  REQUIRE_FALSE(dir.path().empty());
  std::string header = "#define FROM_HEADER 7\nBEGIN { $bad = ; }\n";
  write(dir.path() / "sub" / "defs.h", header);
  write(dir.path() / "inc" / "other.h", "#define FROM_I 8\n");
  std::string script = "#include \"sub/defs.h\"\n#include \"other.h\"\nEND { printf(\"%d\", FROM_HEADER + FROM_I); }\n";
  std::string script_path = (dir.path() / "s.bt").string();
  PreprocessOptions o;
  o.include_dirs = {(dir.path() / "inc").string()};
  PreprocessResult r = run(script, o, script_path);
  REQUIRE(r.ok);
  FrontEndResult f = run_front_end(r.source, {});
  REQUIRE_FALSE(f.ok);
  // The syntax error is in the header, reported with the header's path and line.
  CHECK(test::error_text(f).find(where((dir.path() / "sub" / "defs.h").string(), header, "; }")) == 0);
  CHECK(r.source.text().find(std::to_string(7)) != std::string::npos);
}

TEST_CASE("a missing header is an error at the #include, naming the header") {
  std::string script = "BEGIN {}\n#include \"nowhere.h\"\n";
  PreprocessResult r = run(script);
  REQUIRE_FALSE(r.ok);
  CHECK(test::error_text(r).find(where("t.bt", script, "\"nowhere.h\"")) == 0);
  CHECK(test::error_text(r).find("\"nowhere.h\" not found") != std::string::npos);

  std::string kernel = "#include <net/sock.h>\nBEGIN {}\n";
  PreprocessResult no_btf = run(kernel);
  REQUIRE_FALSE(no_btf.ok);
  CHECK(test::error_text(no_btf).find(where("t.bt", kernel, "<net/sock.h>")) == 0);
  CHECK(test::error_text(no_btf).find("no BTF") != std::string::npos);
  // With BTF the kernel's types come from there: satisfied, and -v says so.
  PreprocessOptions btf;
  btf.have_btf = true;
  PreprocessResult with_btf = run(kernel, btf);
  CHECK(with_btf.ok);
  REQUIRE(with_btf.notes.size() == 1);
  CHECK(with_btf.notes[0].find("<net/sock.h>") == 0);
}

TEST_CASE("an error in an included file names that file and the #include that read it") {
  test::ScratchDir dir;
  std::string header = "#if 1 +\n#endif\n";
  write(dir.path() / "bad.h", header);
  std::string script = "\n#include \"bad.h\"\nBEGIN {}\n";
  PreprocessResult r = run(script, {}, (dir.path() / "s.bt").string());
  REQUIRE_FALSE(r.ok);
  CHECK(test::error_text(r).find((dir.path() / "bad.h").string() + ":1:") == 0);
  CHECK(test::error_text(r).find("included from " + (dir.path() / "s.bt").string() + ":2\n") != std::string::npos);
}

TEST_CASE("<...> headers give their macros but not their C text; -I comes before the system's") {
  test::ScratchDir dir;
  write(dir.path() / "sys" / "linux" / "thing.h", "#define THING 3\nstruct thing { int x; };\nint f(void) __THROW;\n");
  write(dir.path() / "user" / "linux" / "thing.h", "#define THING 4\n");
  std::string script = "#include <linux/thing.h>\nBEGIN { printf(\"%d\", THING); }\n";
  PreprocessOptions o;
  o.system_dirs = {(dir.path() / "sys").string()};
  PreprocessResult sys_only = run(script, o);
  REQUIRE(sys_only.ok);
  CHECK(sys_only.source.text().find("struct thing") == std::string::npos);
  CHECK(sys_only.source.text().find("__THROW") == std::string::npos);
  CHECK(pp_token_texts(sys_only.source.text())[6] == "3");
  o.include_dirs = {(dir.path() / "user").string()};
  PreprocessResult user_first = run(script, o);
  REQUIRE(user_first.ok);
  CHECK(pp_token_texts(user_first.source.text())[6] == "4");
  // Named with quotes but found in a system directory, it is still a system header.
  o.include_dirs.clear();
  PreprocessResult quoted = run("#include \"linux/thing.h\"\nBEGIN { printf(\"%d\", THING); }\n", o);
  REQUIRE(quoted.ok);
  CHECK(quoted.source.text().find("struct thing") == std::string::npos);
  CHECK(pp_token_texts(quoted.source.text())[6] == "3");
}

TEST_CASE("--include FILE is read before the script's first line") {
  test::ScratchDir dir;
  write(dir.path() / "pre.h", "#define PRE 9\n");
  PreprocessOptions o;
  o.forced_includes = {(dir.path() / "pre.h").string()};
  PreprocessResult r = run("BEGIN { printf(\"%d\", PRE); }\n", o);
  REQUIRE(r.ok);
  CHECK(r.source.text().find("PRE") == std::string::npos);
  o.forced_includes = {(dir.path() / "absent.h").string()};
  PreprocessResult missing = run("BEGIN {}\n", o);
  CHECK_FALSE(missing.ok);
  CHECK(test::error_text(missing).find("absent.h") != std::string::npos);
}

TEST_CASE("#include_next continues after the directory that held the current file") {
  test::ScratchDir dir;
  write(dir.path() / "a" / "h.h", "#define FIRST 1\n#include_next <h.h>\n");
  write(dir.path() / "b" / "h.h", "#define SECOND 2\n");
  PreprocessOptions o;
  o.include_dirs = {(dir.path() / "a").string(), (dir.path() / "b").string()};
  PreprocessResult r = run("#include <h.h>\n#if FIRST + SECOND == 3\nBOTH\n#endif\n", o);
  REQUIRE(r.ok);
  CHECK(r.source.text().find("BOTH") != std::string::npos);
}

TEST_CASE("include recursion stops with an error instead of exhausting the stack") {
  test::ScratchDir dir;
  write(dir.path() / "self.h", "#include \"self.h\"\n");
  PreprocessResult r = run("#include \"self.h\"\n", {}, (dir.path() / "s.bt").string());
  REQUIRE_FALSE(r.ok);
  CHECK(test::error_text(r).find("nested too deeply") != std::string::npos);
}

TEST_CASE("unbalanced conditionals and bad directives are errors at their line") {
  struct Case {
    std::string text, at;
  } cases[] = {
      {"BEGIN {}\n#endif\n", "endif"},
      {"BEGIN {}\n#else\n", "else"},
      {"#if 1\n#else\n#elif 1\n#endif\n", "elif"},
      {"BEGIN {}\n#if 1\n", "#if"},
      {"BEGIN {}\n#frobnicate\n", "frobnicate"},
      {"#define F(a, a) a\n", "a)"},
      {"#define\n", "define"},
      {"#if 1 / 0\n#endif\n", "/"},
      {"#error stop here\n", "error"},
      {"#define F(x) x\n#if F(1\n#endif\n", "F(1"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    PreprocessResult r = run(c.text);
    REQUIRE_FALSE(r.ok);
    CHECK(test::error_text(r).find(where("t.bt", c.text, c.at)) == 0);
  }
}

TEST_CASE("a macro whose expansion doubles at each level is refused, not expanded forever") {
  std::string script;
  for (int i = 0; i < 40; ++i) script += "#define M" + std::to_string(i) + " M" + std::to_string(i + 1) + " M" + std::to_string(i + 1) + "\n";
  script += "BEGIN { $x = M0; }\n";
  PreprocessResult r = run(script);
  REQUIRE_FALSE(r.ok);
  CHECK(test::error_text(r).find(where("t.bt", script, "M0;")) == 0);
  CHECK(test::error_text(r).find("too large") != std::string::npos);
}

TEST_CASE("deeply nested #if expressions are refused, not a stack overflow") {
  for (std::string piece : {"(", "- ", "1 ? 1 : "}) {
    std::string expr;
    for (int i = 0; i < 100000; ++i) expr += piece;
    PreprocessResult r = run("#if " + expr + "1\n#endif\n");
    REQUIRE_FALSE(r.ok);
    CHECK(test::error_text(r).find("nested too deeply") != std::string::npos);
  }
}

TEST_CASE("the system include directories are a Debian gcc's, with the architecture's triplet") {
  std::vector<std::string> dirs = default_system_include_dirs(arch::host());
  REQUIRE(dirs.size() == 3);
  CHECK(dirs[0] == "/usr/local/include");
  CHECK(dirs[1] == "/usr/include/" + std::string(arch::host().multiarch));
  CHECK(dirs[2] == "/usr/include");
}

}  // namespace rawprobe::lang
