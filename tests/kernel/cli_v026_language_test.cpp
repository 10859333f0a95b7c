// bpftrace 0.26.1's language core, run for real. bpftrace 0.26 is not installed, so the oracle
// is bpftrace 0.17 running the same program written in 0.17's language: each case pairs a
// 0.26 spelling (config block, `let`, bare conditions, durations, `begin`, `interval:100ms`,
// macros, getopt, `.` on a pointer) with the 0.17 text that 0.26.1's docs/language.md says it
// means, and the two outputs must be equal. The v0.26.1 tools must get past those features.
#include <doctest/doctest.h>

#include <dirent.h>

#include <algorithm>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// bpftrace 0.17's output for `old` against ours for `now` (both -e, same extra arguments).
void same_output(const std::string& now, const std::string& old, std::vector<std::string> env = {},
                 std::vector<std::string> rp_tail = {}, std::vector<std::string> bt_tail = {}) {
  std::vector<std::string> bt = {"env"}, rp = {"env"};
  for (const std::string& e : env) bt.push_back(e), rp.push_back(e);
  bt.insert(bt.end(), {"bpftrace", "-e", old});
  bt.insert(bt.end(), bt_tail.begin(), bt_tail.end());
  rp.insert(rp.end(), {rawprobe_path(), "-e", now});
  rp.insert(rp.end(), rp_tail.begin(), rp_tail.end());
  RunResult oracle = run(bt);
  RunResult ours = run(rp);
  INFO("0.26 text:\n", now, "\n0.17 text:\n", old, "\nbpftrace:\n", oracle.out, oracle.err, "\nrawprobe:\n", ours.out,
       ours.err);
  REQUIRE(oracle.status == 0);
  CHECK(ours.status == 0);
  CHECK(ours.out == oracle.out);
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("let, bare conditions, durations and begin/end mean what their 0.17 spelling means") {
  // docs: "if no assignment is specified variables will initialize to 0" does not apply to
  // `let $b;` followed by an assignment, the docs' own example.
  same_output("begin { let $a = 1; let $b; let $c: uint16 = 7; if $a == 1 { $b = \"hello\"; $a = 2; }"
              " $i = 0; while $i < 5 { $i++; } printf(\"%d %s %d %d\\n\", $a, $b, $c, $i); exit(); }",
              "BEGIN { $a = 1; if ($a == 1) { $b = \"hello\"; $a = 2; }"
              " $i = 0; while ($i < 5) { $i++; } printf(\"%d %s %d %d\\n\", $a, $b, (uint16)7, $i); exit(); }");
  // docs: "duration suffixes ... All get turned into integer values in nanoseconds".
  same_output("BEGIN { printf(\"%ld %ld %ld %ld %ld\\n\", 1m, 10ms, 5us, 2s, 7ns); exit(); }",
              "BEGIN { printf(\"%ld %ld %ld %ld %ld\\n\", 60 * 1000000000, 10 * 1000000, 5 * 1000, 2 * 1000000000, 7);"
              " exit(); }");
  // docs: "`interval:1s`, `interval:1000000000`, and `interval:s:1` are all equivalent".
  same_output("interval:100ms { @n++; if @n == 3 { exit(); } } end { printf(\"done %d\\n\", @n); }",
              "interval:ms:100 { @n++; if (@n == 3) { exit(); } } END { printf(\"done %d\\n\", @n); }");
  same_output("interval:100000000 { printf(\"tick\\n\"); exit(); }", "interval:ms:100 { printf(\"tick\\n\"); exit(); }");
}

TEST_CASE("macros print what their expansion prints under bpftrace 0.17") {
  // docs/language.md's "Macros" example (the block-expression line left out), its comments
  // giving 1, 1, 11, 3, 17 and 3; the 0.17 text is the expansion written out.
  same_output("macro one() { 1 }\n"
              "macro add_one(x) { x + 1 }\n"
              "macro add_one_to_each($a, @b) { $a += 1; @b += 1; }\n"
              "macro add_two(x) { add_one(x) + 1 }\n"
              "macro side_effects(x) { x; x; x; }\n"
              "begin { print(one()); print(one); $a = 10; print(add_one($a)); print(add_one(1 + 1));\n"
              "  @b = 5; add_one_to_each($a, @b); print($a + @b); side_effects(printf(\"hi\")); printf(\"\\n\");"
              " print(add_two(1)); delete(@b); exit(); }",
              "BEGIN { print(1); print(1); $a = 10; print($a + 1); print(1 + 1 + 1);\n"
              "  @b = 5; $a += 1; @b += 1; print($a + @b); printf(\"hi\"); printf(\"hi\"); printf(\"hi\"); printf(\"\\n\");"
              " print(1 + 1 + 1); delete(@b); exit(); }");
}

TEST_CASE("config variables change what bpftrace 0.17's environment variables change") {
  // max_strlen is 0.17's BPFTRACE_STRLEN: the same path, cut at the same byte.
  std::string open_probe = "tracepoint:syscalls:sys_enter_openat /comm == \"true\"/ { printf(\"%s\\n\", str(args->filename)); exit(); }";
  same_output("config = { max_strlen = 8 }\n" + open_probe, open_probe, {"BPFTRACE_STRLEN=8"}, {"-c", "/bin/true"},
              {"-c", "/bin/true"});
  // The environment beats the config block (docs: "Environment variables for the same config
  // take precedence over those set inside a script config block").
  same_output("config = { max_strlen = 8 }\n" + open_probe, open_probe, {"BPFTRACE_STRLEN=12"}, {"-c", "/bin/true"},
              {"-c", "/bin/true"});
  // max_map_keys is 0.17's BPFTRACE_MAP_KEYS_MAX: a full map keeps the same entries.
  std::string fill = "BEGIN { @[1] = 1; @[2] = 2; @[3] = 3; exit(); }";
  same_output("config = { max_map_keys = 2 }\n" + fill, fill, {"BPFTRACE_MAP_KEYS_MAX=2"});
  // print_maps_on_exit = false prints what the same script without maps prints.
  same_output("config = { print_maps_on_exit = false }\nBEGIN { @a = 1; @b[2] = 3; exit(); } END { }",
              "BEGIN { exit(); } END { }");
}

TEST_CASE("map declarations size the map, and lruhash evicts instead of refusing") {
  // `let @m = hash(2)` holds what 0.17's BPFTRACE_MAP_KEYS_MAX=2 made every map hold.
  std::string fill = "BEGIN { @m[1] = 1; @m[2] = 2; @m[3] = 3; exit(); }";
  same_output("let @m = hash(2);\n" + fill, fill, {"BPFTRACE_MAP_KEYS_MAX=2"});
  // docs: the lru variants "evict the approximately least recently used elements": the third
  // key goes in, so two keys are printed and no update fails.
  RunResult lru = run_rawprobe({"-e", "let @m = lruhash(2);\n" + fill});
  INFO(lru.out, lru.err);
  CHECK(lru.status == 0);
  CHECK(lru.out.find("@m[3]: 3") != std::string::npos);
  CHECK(std::count(lru.out.begin(), lru.out.end(), '@') == 2);
  CHECK(lru.err == "");
}

TEST_CASE("missing_probes = warn or ignore leaves out a probe that is not here") {
  std::string rest = "tracepoint:nosuchcategory:nosuchevent { @x = 1; }\nBEGIN { printf(\"ran\\n\"); exit(); }";
  RunResult oracle = run({"bpftrace", "-e", "BEGIN { printf(\"ran\\n\"); exit(); }"});
  REQUIRE(oracle.status == 0);
  RunResult error = run_rawprobe({"-e", "config = { missing_probes = error }\n" + rest});
  CHECK(error.status != 0);
  CHECK(error.err.find("-e:2:1: error:") != std::string::npos);
  RunResult warn = run_rawprobe({"-e", "config = { missing_probes = warn }\n" + rest});
  INFO(warn.err);
  CHECK(warn.status == 0);
  CHECK(warn.err.find("-e:2:1: warning:") != std::string::npos);
  // The block never ran, so @x is never set; the rest is BEGIN's output.
  CHECK(warn.out.find(oracle.out.substr(oracle.out.find('\n') + 1)) != std::string::npos);
  RunResult ignore = run_rawprobe({"-e", "config = { missing_probes = ignore }\n" + rest});
  CHECK(ignore.status == 0);
  CHECK(ignore.err == "");
  CHECK(ignore.out == warn.out);
}

TEST_CASE("getopt takes named options after --") {
  // docs: with `-- --aa=20 --bb`, getopt("aa", 1) is 20 and getopt("bb") true.
  same_output("BEGIN { printf(\"%d %d %d\\n\", getopt(\"aa\", 1), getopt(\"bb\"), getopt(\"cc\", 5, \"help\")); exit(); }",
              "BEGIN { printf(\"%d %d %d\\n\", 20, 1, 5); exit(); }", {}, {"--", "--aa=20", "--bb"});
  RunResult bad = run_rawprobe({"-e", "BEGIN { print(getopt(\"aa\", 1)); exit(); }", "--", "--ab=3"});
  CHECK(bad.status != 0);
  CHECK(bad.err.find("unexpected program command line option --ab; did you mean 'aa'?") != std::string::npos);
  // `-- --help` lists the options the script reads, with their help texts, and runs nothing.
  RunResult help = run_rawprobe({"-e",
                                 "BEGIN { printf(\"ran\\n\"); print(getopt(\"depth\", 35, \"Maximum depth of full path\"));"
                                 " if getopt(\"errname\", false, \"Show error message instead of errno\") { exit(); } }",
                                 "--", "--help"});
  CHECK(help.status == 0);
  CHECK(help.out.find("ran") == std::string::npos);
  CHECK(help.out.find("--depth=N") != std::string::npos);
  CHECK(help.out.find("Maximum depth of full path (integer, default 35)") != std::string::npos);
  CHECK(help.out.find("--errname ") != std::string::npos);
  CHECK(help.out.find("Show error message instead of errno (boolean, default false)") != std::string::npos);
}

TEST_CASE("'.' on a pointer to a struct reads the field, as '->' does") {
  std::string bin = sample("struct_arg");
  std::string decls = "struct point { int x; short y; };\n"
                      "struct record { int id; char name[12]; struct point where; struct point path[2]; struct record *next; };\n";
  std::string now = decls + "uprobe:" + bin + ":visit { $r = (struct record *)arg0; if $r.next {"
                    " printf(\"%d %s %d %d\\n\", $r.id, $r.name, $r.where.x, $r.next.id); } }";
  std::string old = decls + "uprobe:" + bin + ":visit { $r = (struct record *)arg0; if ($r->next != 0) {"
                    " printf(\"%d %s %d %d\\n\", $r->id, $r->name, $r->where.x, $r->next->id); } }";
  RunResult bt = run({"bpftrace", "-c", bin, "-e", old});
  RunResult rp = run_rawprobe({"-c", bin, "-e", now});
  INFO("bpftrace:\n", bt.out, bt.err, "\nrawprobe:\n", rp.out, rp.err);
  REQUIRE(bt.status == 0);
  CHECK(rp.status == 0);
  // The sample prints its own line whenever its stdout is flushed: compare the tracer's lines.
  auto traced = [](const std::string& out) {
    std::string kept;
    for (size_t at = 0, end; at < out.size(); at = end + 1) {
      end = out.find('\n', at);
      if (end == std::string::npos) end = out.size();
      std::string line = out.substr(at, end - at);
      if (line.rfind("visited", 0) != 0) kept += line + "\n";
    }
    return kept;
  };
  CHECK(traced(rp.out) == traced(bt.out));
}

TEST_CASE("bpftrace v0.26.1's tools get past the syntax this branch adds") {
  // What rawprobe said of these tools before: each feature's first error.
  const char* before[] = {"unknown probe type 'config'", "unknown probe type 'macro'", "expected '(' after 'if'",
                          "expected '(' after 'while'", "interval probe type requires 2 arguments",
                          "Try dereferencing it first", "unknown probe type 'begin'", "Invalid type for if condition"};
  // Where cli_script_tools_test.cpp looks: RAWPROBE_CORPUS, beside the checkout, /work/shared.
  const char* from_env = std::getenv("RAWPROBE_CORPUS");
  std::string dir;
  DIR* d = nullptr;
  for (std::string corpus : {std::string(from_env ? from_env : ""), source_root() + "/../shared/corpus",
                             std::string("/work/shared/corpus")})
    if (!d && !corpus.empty() && (d = opendir((corpus + "/bpftrace-v0.26.1/tools").c_str())))
      dir = corpus + "/bpftrace-v0.26.1/tools";
  REQUIRE_MESSAGE(d, "shared/corpus/bpftrace-v0.26.1/tools is beside the source tree, in /work/shared, or named by "
                     "RAWPROBE_CORPUS");
  std::vector<std::string> tools;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name.size() > 3 && name.substr(name.size() - 3) == ".bt") tools.push_back(name);
  }
  closedir(d);
  CHECK(tools.size() == 39);
  for (const std::string& tool : tools) {
    RunResult r = run_rawprobe({"--dry-run", dir + "/" + tool});
    for (const char* old : before) CHECK_MESSAGE(r.err.find(old) == std::string::npos, tool, ": ", r.err);
  }
}

TEST_SUITE_END();

TEST_CASE("bool: bpftrace's own tests of it (tests/runtime/bool) print the same here") {
  // bpftrace 0.26 is not installed: the cases and their expected lines are bpftrace's own.
  // Each PROG and its EXPECT lines, from bpftrace's tests/runtime/bool (the cases whose
  // features rawprobe has: all but the (bool[2]) array cast).
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"BEGIN { print((true, false)); exit(); }", {"(true, false)"}},
      {"BEGIN { if (true) { print(1); } if (false) { print(2); } exit(); }", {"1"}},
      {"BEGIN { @a[true] = false; exit(); }", {"@a[true]: false"}},
      {"BEGIN { $b = true; $c = false; print(($b, $c)); exit(); }", {"(true, false)"}},
      {"BEGIN{ print(((bool)1, (bool)0)); exit(); }", {"(true, false)"}},
      {"BEGIN{ print(((bool)\"hello\", (bool)\"\")); exit(); }", {"(true, false)"}},
      {"BEGIN { $a = (int64*)0; $b = (int64*)1; print(((bool)$b, (bool)$a)); exit(); }", {"(true, false)"}},
      {"BEGIN{ print(((int64)true, (int64)false)); exit(); }", {"(1, 0)"}},
      {"BEGIN{ print((!0, !10)); exit(); }", {"(true, false)"}},
      {"BEGIN { @a[false, 1, true] = 1; @a[true, (int32)2, false] = 2; exit(); }",
       {"@a[false, 1, true]: 1", "@a[true, 2, false]: 2"}},
  };
  for (const auto& [prog, expect] : cases) {
    CAPTURE(prog);
    RunResult r = run_rawprobe({"-e", prog});
    INFO(r.err);
    REQUIRE(r.status == 0);
    std::vector<std::string> got = lines_starting(r.out, "");
    for (const std::string& line : expect) CHECK_MESSAGE(std::count(got.begin(), got.end(), line) == 1, r.out);
    // "EXPECT_NONE 2" for the conditional case.
    if (prog.find("print(2)") != std::string::npos) CHECK(std::count(got.begin(), got.end(), "2") == 0);
  }
}
