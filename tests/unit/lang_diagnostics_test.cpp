// The front end's errors are data: where (file, line, column, the span's width and its line),
// what, and the notes under it; only the driver turns them into text.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "tests/unit/arch_oracle.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;

TEST_CASE("a front-end error is a place and a message; the driver renders it under its line") {
  std::string line = "  @y = $nosuch + 1;";
  std::string script = "BEGIN {\n" + line + "\n}\n";
  lang::FrontEndResult r = test::front_end(script, "d.bt");
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.diagnostics.size() == 1);
  const lang::Diagnostic& d = r.diagnostics[0];
  CHECK(d.severity == lang::Severity::Error);
  REQUIRE(d.place);
  CHECK(d.place->file == "d.bt");
  CHECK(d.place->line == 2);
  CHECK(d.place->column == line.find("$nosuch") + 1);
  CHECK(d.place->width == std::string("$nosuch").size());
  CHECK(d.place->text == line);
  CHECK(d.message.find("$nosuch") != std::string::npos);
  CHECK(test::error_text(r) == "d.bt:2:" + std::to_string(d.place->column) + ": error: " + d.message + "\n" + line +
                                   "\n" + std::string(line.find("$nosuch"), ' ') + "^~~~~~~\n");
}

TEST_CASE("a preprocessor error in an included file carries the include chain as notes") {
  test::ScratchDir dir;
  std::string header = "#error from the header\n";
  std::ofstream(dir.path() / "h.h") << header;
  std::string script = "BEGIN {}\n#include \"h.h\"\n";
  lang::PreprocessResult r = lang::preprocess((dir.path() / "s.bt").string(), script, {});
  REQUIRE_FALSE(r.ok);
  REQUIRE(r.diagnostics.size() == 1);
  const lang::Diagnostic& d = r.diagnostics[0];
  REQUIRE(d.place);
  CHECK(d.place->file == (dir.path() / "h.h").string());
  CHECK(d.place->line == 1);
  CHECK(d.place->text == header.substr(0, header.find('\n')));
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0] == "included from " + (dir.path() / "s.bt").string() + ":2");
  CHECK(test::error_text(r).find("\n  " + d.notes[0] + "\n") != std::string::npos);
}

TEST_CASE("a warning renders as one; a note about the whole file and an error about none have their forms") {
  lang::SourceFile src("w.bt", "uprobe:/bin/true:nosuch { }\n");
  lang::Diagnostic warning = lang::diagnostic_at(src, {0, 25}, "gone", lang::Severity::Warning);
  CHECK(test::error_text(std::vector{warning}).find("w.bt:1:1: warning: gone\n") == 0);
  lang::Diagnostics many;
  for (uint32_t i = 0; i < lang::Diagnostics::kMaxErrors + 1; ++i) many.error({i, i + 1}, "e" + std::to_string(i));
  std::vector<lang::Diagnostic> resolved = many.resolve(src);
  REQUIRE(resolved.size() == lang::Diagnostics::kMaxErrors + 1);
  CHECK(test::error_text(std::vector{resolved.back()}) == "w.bt: too many errors, stopping\n");
  lang::Diagnostic nowhere;
  nowhere.message = "bad environment";
  CHECK(test::error_text(std::vector{nowhere}) == "rawprobe: error: bad environment\n");
}
