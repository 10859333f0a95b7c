// `import` end to end: a script that imports a .bt (a C macro, a bpftrace macro and a probe
// counting into a map) and a .h (samples/struct_arg.h, the header samples/struct_arg.c itself
// is built with) traces the real struct_arg through a uprobe. The oracle is bpftrace 0.17
// running the same script written out: each import replaced by the imported file's text and
// the bpftrace macro's body put at its use, since 0.17 has neither import nor macro. Both
// must print the same.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// Drops the traced program's own line ("visited N"), which reaches the captured stdout at a
// moment that depends on when the child flushes, not on the tracer.
std::string without_child_output(const std::string& out) {
  std::string kept;
  for (const std::string& line : lines_starting(out, ""))
    if (line.rfind("visited ", 0) != 0) kept += line + "\n";
  return kept;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("a script importing a .bt and a .h traces struct_arg as the same script written out does") {
  std::string binary = sample("struct_arg");
  std::string header_path = source_root() + "/samples/struct_arg.h";
  std::string header = read_file(header_path);
  REQUIRE(header.find("struct record {") != std::string::npos);

  std::string pattern = (std::filesystem::temp_directory_path() / "rawprobe-cli-imports-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  std::string dir = pattern;
  std::filesystem::create_directories(dir + "/lib");
  std::string probe = "uprobe:" + binary + ":visit";
  std::string lib_defines = "#define SCALE 10\n";
  std::string lib_probe = probe + " { @visits = count(); }\n";
  std::ofstream(dir + "/lib/visits.bt") << lib_defines << "macro scaled(x) { x * SCALE }\n" << lib_probe;
  std::string body = probe + " { $r = (struct record *)arg0; printf(\"%s %d %d\\n\", $r->name, $r->id, ";
  std::ofstream(dir + "/main.bt") << "import \"" + header_path + "\";\nimport \"lib/visits.bt\";\n"
                                  << body << "scaled($r->where.x)); }\n";
  std::string written_out = header + lib_defines + lib_probe + body + "$r->where.x * SCALE); }\n";

  RunResult oracle = run({"bpftrace", "-c", binary, "-e", written_out});
  REQUIRE_MESSAGE(oracle.status == 0, oracle.err);
  RunResult ours = run_rawprobe({"-c", binary, dir + "/main.bt"});
  std::filesystem::remove_all(dir);
  INFO("rawprobe stderr: ", ours.err);
  CHECK(ours.status == 0);
  std::string expected = without_child_output(oracle.out);
  CHECK(expected.find("@visits: ") != std::string::npos);
  CHECK(without_child_output(ours.out) == expected);
}

TEST_SUITE_END();
