// `import "NAME";` (bpftrace 0.26): what it reads, in which order, what it refuses and where
// its errors point. Every fixture is written into a fresh directory only its owner may write
// (mkdtemp's 0700), so the world-writable refusal is tested only where a test asks for it.
// Expected positions are computed from the fixture text; expected contents from the files.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "engine/lang/imports.h"
#include "engine/lang/preprocess.h"
#include "tests/unit/lang_fixture.h"

namespace rawprobe::lang {
namespace {

class ImportDir {
 public:
  ImportDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rawprobe-imports-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    root_ = pattern;
  }
  ~ImportDir() { std::filesystem::remove_all(root_); }
  // Writes `text` at `relative` (making its directories, 0755) and returns its path.
  std::string write(const std::string& relative, const std::string& text) {
    std::filesystem::path p = std::filesystem::path(root_) / relative;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  std::string path(const std::string& relative) const { return root_ + "/" + relative; }

 private:
  std::string root_;
};

PreprocessResult run(const std::string& script_path, const std::string& text, PreprocessOptions options = {}) {
  if (options.system_dirs.empty()) options.system_dirs = {"/nonexistent/rawprobe-test-include"};
  return preprocess(script_path, text, options);
}

// "FILE:LINE:COL: error: " at the first `needle` in `text` (named `name`).
std::string where(const std::string& name, const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  REQUIRE(at != std::string::npos);
  LineCol lc = line_col(text, uint32_t(at));
  return name + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": error: ";
}

// The errors of a run that must fail, as the user sees them.
std::string errors_of(const std::string& script_path, const std::string& text, PreprocessOptions options = {}) {
  PreprocessResult r = run(script_path, text, std::move(options));
  REQUIRE_FALSE(r.ok);
  return test::error_text(r);
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("an imported .bt gives the script its C macro, its bpftrace macro and its probe with a map") {
  ImportDir dir;
  std::string lib = "#define SCALE 10\nmacro scaled(x) { x * SCALE }\nBEGIN { @visits = count(); }\n";
  dir.write("lib/visits.bt", lib);
  std::string main_text = "import \"lib/visits.bt\";\nBEGIN { @scaled = scaled(4); exit(); }\n";
  std::string main_path = dir.write("main.bt", main_text);
  lang::FrontEndResult r = test::front_end(main_text, main_path);
  INFO(test::error_text(r));
  REQUIRE(r.ok);
  // The imported probe comes first, as bpftrace runs an import's begin probes before the importer's.
  REQUIRE(r.program.ast.probes.size() == 2);
  std::vector<std::string> maps;
  for (const MapInfo& m : r.program.info.maps) maps.push_back(m.name);
  CHECK(std::count(maps.begin(), maps.end(), "@visits") == 1);
  CHECK(std::count(maps.begin(), maps.end(), "@scaled") == 1);
  PreprocessResult pre = run(main_path, main_text);
  REQUIRE(pre.ok);
  CHECK(pre.source.text().find("@visits") < pre.source.text().find("@scaled"));

  SUBCASE("without the import the same script does not know the macro") {
    std::string alone = main_text.substr(main_text.find('\n') + 1);
    CHECK_FALSE(test::front_end(alone, main_path).ok);
  }
  SUBCASE("an error inside the imported file names that file, line and column") {
    std::string bad = "BEGIN {\n  $x = ;\n}\n";
    dir.write("lib/bad.bt", bad);
    std::string importer = "import \"lib/bad.bt\";\nBEGIN { exit(); }\n";
    lang::FrontEndResult f = test::front_end(importer, main_path);
    REQUIRE_FALSE(f.ok);
    CHECK(test::error_text(f).find(where(dir.path("lib/bad.bt"), bad, ";\n}")) == 0);
  }
}

TEST_CASE("an imported .h declares the struct a cast uses") {
  ImportDir dir;
  std::string header = "#ifndef PAIR_H\n#define PAIR_H\nstruct pair { int a; long b; };\n#endif\n";
  dir.write("pair.h", header);
  std::string body = "BEGIN { $p = (struct pair *)0; @b = $p->b; exit(); }\n";
  std::string main_path = dir.path("main.bt");
  lang::FrontEndResult with = test::front_end("import \"pair.h\";\n" + body, main_path);
  INFO(test::error_text(with));
  CHECK(with.ok);
  // The import is what makes the struct known.
  lang::FrontEndResult without = test::front_end(body, main_path);
  CHECK_FALSE(without.ok);
  CHECK(test::error_text(without).find("pair") != std::string::npos);
}

TEST_CASE("a directory import reads its headers, then its scripts, each by name, and nothing else") {
  ImportDir dir;
  dir.write("lib/b_second.bt", "BEGIN { printf(\"second\\n\"); }\n");
  dir.write("lib/a_first.bt", "BEGIN { $p = (struct pair *)0; printf(\"first %d\\n\", $p->a); }\n");
  dir.write("lib/types.h", "struct pair { int a; int b; };\n");
  dir.write("lib/notes.txt", "not a script\n");
  dir.write("lib/sub/deeper.bt", "BEGIN { printf(\"deeper\\n\"); }\n");
  std::string main_text = "import \"lib\";\nBEGIN { exit(); }\n";
  std::string main_path = dir.path("main.bt");
  PreprocessResult pre = run(main_path, main_text);
  INFO(test::error_text(pre));
  REQUIRE(pre.ok);
  const std::string& out = pre.source.text();
  size_t types = out.find("struct pair"), first = out.find("first"), second = out.find("second");
  REQUIRE(types != std::string::npos);
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(types < first);
  CHECK(first < second);
  CHECK(out.find("deeper") == std::string::npos);
  CHECK(out.find("not a script") == std::string::npos);
  CHECK(test::front_end(main_text, main_path).ok);

  SUBCASE("a directory with nothing to import is an error") {
    std::filesystem::create_directories(dir.path("empty"));
    dir.write("empty/readme.txt", "x\n");
    std::string text = "import \"empty\";\n";
    std::string r_errors = errors_of(main_path, text);
    CHECK(r_errors.find(where(main_path, text, "\"empty\"")) == 0);
  }
}

TEST_CASE("a world-writable directory or file is refused, as bpftrace refuses it") {
  ImportDir dir;
  std::string header = dir.write("shared/types.h", "struct pair { int a; };\n");
  std::string text = "BEGIN { exit(); }\n";
  std::string main_path = dir.path("main.bt");
  std::string script = "import \"shared/types.h\";\n" + text;

  REQUIRE(chmod(dir.path("shared").c_str(), 0777) == 0);
  std::string r_errors = errors_of(main_path, script);
  CHECK(r_errors.find(where(main_path, script, "\"shared/types.h\"")) == 0);
  CHECK(r_errors.find("its directory " + dir.path("shared") + " is writable by every user (mode 0777)") != std::string::npos);
  CHECK(r_errors.find("chmod o-w") != std::string::npos);

  SUBCASE("a directory import of it is refused too") {
    std::string whole = "import \"shared\";\n" + text;
    std::string d_errors = errors_of(main_path, whole);
    CHECK(d_errors.find("refusing " + dir.path("shared")) != std::string::npos);
  }
  SUBCASE("a world-writable file in a private directory is refused") {
    REQUIRE(chmod(dir.path("shared").c_str(), 0755) == 0);
    REQUIRE(chmod(header.c_str(), 0666) == 0);
    std::string f_errors = errors_of(main_path, script);
    CHECK(f_errors.find(header + " is writable by every user (mode 0666)") != std::string::npos);
  }
  SUBCASE("the search goes on to a -I directory that holds a safe copy") {
    dir.write("safe/shared/types.h", "struct pair { int a; };\n");
    PreprocessOptions options;
    options.include_dirs = {dir.path("safe")};
    PreprocessResult s = run(main_path, script, options);
    INFO(test::error_text(s));
    CHECK(s.ok);
    CHECK(std::count(s.notes.begin(), s.notes.end(),
                     "import \"shared/types.h\": read " + dir.path("safe/shared/types.h")) == 1);
  }
  SUBCASE("with the write permission gone the same import is read") {
    REQUIRE(chmod(dir.path("shared").c_str(), 0755) == 0);
    CHECK(run(main_path, script).ok);
  }
}

TEST_CASE("a .bpf.c import is refused: compiling it needs a C compiler") {
  ImportDir dir;
  dir.write("probe.bpf.c", "int x;\n");
  std::string main_path = dir.path("main.bt");
  std::string script = "import \"probe.bpf.c\";\nBEGIN { exit(); }\n";
  std::string r_errors = errors_of(main_path, script);
  CHECK(r_errors.find(where(main_path, script, "\"probe.bpf.c\"")) == 0);
  CHECK(r_errors.find("C compiler") != std::string::npos);

  SUBCASE("also when a directory import holds it") {
    dir.write("lib/ok.bt", "BEGIN { printf(\"ok\\n\"); }\n");
    dir.write("lib/helper.bpf.c", "int y;\n");
    CHECK(errors_of(main_path, "import \"lib\";\n").find(dir.path("lib/helper.bpf.c") + " is C source") != std::string::npos);
  }
  SUBCASE("a FIFO is refused instead of read, which would wait forever") {
    REQUIRE(mkfifo(dir.path("pipe.bt").c_str(), 0600) == 0);
    CHECK(errors_of(main_path, "import \"pipe.bt\";\n").find("neither a regular file nor a directory") != std::string::npos);
  }
  SUBCASE("a file of another kind is an unknown import type") {
    dir.write("data.json", "{}\n");
    CHECK(errors_of(main_path, "import \"data.json\";\n").find("unknown import type: " + dir.path("data.json")) != std::string::npos);
  }
}

TEST_CASE("a missing import names every place it was looked for") {
  ImportDir dir;
  std::string main_path = dir.path("main.bt");
  std::string script = "BEGIN { exit(); }\n";
  std::string with = "\nimport \"nowhere.bt\";\n" + script;
  PreprocessOptions options;
  options.include_dirs = {dir.path("extra")};
  std::string r_errors = errors_of(main_path, with, options);
  CHECK(r_errors.find(where(main_path, with, "\"nowhere.bt\"")) == 0);
  CHECK(r_errors.find("looked for " + dir.path("nowhere.bt") + ", " + dir.path("extra/nowhere.bt")) != std::string::npos);
}

TEST_CASE("an import inside an imported file is looked for where the main script is, as bpftrace does") {
  ImportDir dir;
  dir.write("lib/helper.bt", "BEGIN { printf(\"helper\\n\"); }\n");
  std::string main_path = dir.path("main.bt");
  dir.write("lib/by_main_dir.bt", "import \"lib/helper.bt\";\n");
  PreprocessResult ok = run(main_path, "import \"lib/by_main_dir.bt\";\n");
  INFO(test::error_text(ok));
  CHECK(ok.ok);
  CHECK(ok.source.text().find("helper") != std::string::npos);
  // A name relative to the importing file's own directory is not found there.
  std::string sibling = "import \"helper.bt\";\n";
  dir.write("lib/by_sibling.bt", sibling);
  std::string errors = errors_of(main_path, "import \"lib/by_sibling.bt\";\n");
  CHECK(errors.find(where(dir.path("lib/by_sibling.bt"), sibling, "\"helper.bt\"")) == 0);
  CHECK(errors.find("looked for " + dir.path("helper.bt") + ")") != std::string::npos);
}

TEST_CASE("a file imported twice, or back by what it imports, is read once") {
  ImportDir dir;
  dir.write("b.bt", "import \"main.bt\";\nimport \"c.bt\";\nBEGIN { printf(\"from b\\n\"); }\n");
  dir.write("c.bt", "import \"b.bt\";\nBEGIN { printf(\"from c\\n\"); }\n");
  std::string main_text = "import \"b.bt\";\nimport \"c.bt\";\nimport \"./b.bt\";\nBEGIN { printf(\"from main\\n\"); exit(); }\n";
  std::string main_path = dir.write("main.bt", main_text);
  PreprocessResult r = run(main_path, main_text);
  INFO(test::error_text(r));
  REQUIRE(r.ok);
  const std::string& out = r.source.text();
  CHECK(count_of(out, "from b") == 1);
  CHECK(count_of(out, "from c") == 1);
  CHECK(count_of(out, "from main") == 1);
  // Depth first: c (imported by b) before b's own probe, both before the script's.
  CHECK(out.find("from c") < out.find("from b"));
  CHECK(out.find("from b") < out.find("from main"));
  CHECK(test::front_end(main_text, main_path).ok);
}

TEST_CASE("imports come before the probes, and an imported script has no config block") {
  ImportDir dir;
  dir.write("lib.bt", "BEGIN { printf(\"lib\\n\"); }\n");
  std::string main_path = dir.path("main.bt");

  std::string late = "BEGIN { exit(); }\nimport \"lib.bt\";\n";
  std::string r_errors = errors_of(main_path, late);
  CHECK(r_errors.find(where(main_path, late, "import")) == 0);

  // C definitions and a config block may come first, as in bpftrace's grammar.
  std::string early = "#define N 1\nstruct s { int a; };\nconfig = { max_strlen = 32 }\nimport \"lib.bt\";\nBEGIN { exit(); }\n";
  lang::FrontEndResult ok = test::front_end(early, main_path);
  INFO(test::error_text(ok));
  CHECK(ok.ok);

  std::string configured = "config = { max_strlen = 16 }\nBEGIN { printf(\"x\\n\"); }\n";
  dir.write("configured.bt", configured);
  std::string c_errors = errors_of(main_path, "import \"configured.bt\";\nBEGIN { exit(); }\n");
  CHECK(c_errors.find(where(dir.path("configured.bt"), configured, "config")) == 0);
  CHECK(c_errors.find("imported from " + main_path + ":1") != std::string::npos);
}

TEST_CASE("the statement's own syntax errors point at the statement") {
  ImportDir dir;
  std::string main_path = dir.path("main.bt");
  for (std::string bad : {std::string("import lib.bt;\n"), std::string("import \"lib.bt\"\n"), std::string("import \"lib.bt;\n"),
                          std::string("import \"\";\n")}) {
    CAPTURE(bad);
    std::string r_errors = errors_of(main_path, bad);
    CHECK(r_errors.find(main_path + ":1:") == 0);
  }
  // `import` inside a block, in a string or as part of a word is no statement.
  std::string fine = "BEGIN { printf(\"import \\\"x\\\";\\n\"); $important = 1; exit(); }\n";
  PreprocessResult r = run(main_path, fine);
  REQUIRE(r.ok);
  CHECK(r.source.text() == fine);
}

}  // namespace rawprobe::lang
