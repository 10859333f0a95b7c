// for loops (bpftrace 0.26.1's language), run for real on this kernel: over a map's entries
// with bpf_for_each_map_elem and over ranges with bpf_loop, the bodies as callbacks. Expected
// output comes from bpftrace v0.26.1's docs/language.md ("Loops", "For": the examples and
// what their comments say they print) or is computed here from the script's own input.
// bpftrace 0.17 has no for loop, so it cannot be the oracle.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// stdout's lines after "Attaching N probes...", up to the first empty line (where the maps
// printed at exit begin).
std::vector<std::string> printed_lines(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  std::string line;
  std::getline(in, line);  // Attaching ...
  while (std::getline(in, line) && !line.empty()) lines.push_back(line);
  return lines;
}

RunResult run_script(const std::string& script) {
  RunResult r = run_rawprobe({"-e", script});
  INFO("script: ", script);
  INFO("stderr: ", r.err);
  CHECK(r.status == 0);
  CHECK(r.err == "");
  return r;
}

}  // namespace

TEST_CASE("for over a map visits every entry once, with $kv.0 the key and $kv.1 the value") {
  if (checked_interpreter_refusal()) return;
  // 40 entries, value 7k+3: the lines expected are made from the same numbers.
  std::string script = "BEGIN { ";
  std::vector<std::string> expected;
  for (int k = 1; k <= 40; ++k) {
    script += "@m[" + std::to_string(k) + "] = " + std::to_string(7 * k + 3) + "; ";
    expected.push_back(std::to_string(k) + " " + std::to_string(7 * k + 3));
  }
  script += "for ($kv : @m) { printf(\"%d %d\\n\", $kv.0, $kv.1); } clear(@m); exit(); }";
  std::vector<std::string> lines = printed_lines(run_script(script).out);
  std::sort(lines.begin(), lines.end());
  std::sort(expected.begin(), expected.end());
  CHECK(lines == expected);
}

TEST_CASE("for over a map of several keys nests them: ((k1, k2), value), as docs/language.md shows") {
  if (checked_interpreter_refusal()) return;
  // bpftrace v0.26.1 docs/language.md, "For": @map[10,11] = 20; then $kv.0.0 is key 1,
  // $kv.0.1 key 2, $kv.1 the value (print() of each).
  RunResult r = run_script("BEGIN { @map[10,11] = 20; for ($kv : @map) { print($kv.0.0); print($kv.0.1); print($kv.1); } "
                           "delete(@map[10,11]); exit(); }");
  CHECK(printed_lines(r.out) == std::vector<std::string>{"10", "11", "20"});
  // String keys and values, and the whole entry as a tuple.
  RunResult s = run_script("BEGIN { @name[\"one\", 1] = \"first\"; for ($kv : @name) { print($kv); } clear(@name); exit(); }");
  CHECK(printed_lines(s.out) == std::vector<std::string>{"((one, 1), first)"});
}

TEST_CASE("for over a range: start included, end excluded, both read once") {
  if (checked_interpreter_refusal()) return;
  // docs/language.md, "For": with $a = 10, for ($i : 0..$a) { print($i); $a--; } prints 0 to 9.
  RunResult r = run_script("BEGIN { $a = 10; for ($i : 0..$a) { print($i); $a--; } exit(); }");
  std::vector<std::string> expected;
  for (int i = 0; i < 10; ++i) expected.push_back(std::to_string(i));
  CHECK(printed_lines(r.out) == expected);

  // A sum the test computes the same way; a variable of the probe changed in the body keeps
  // its value after the loop.
  int64_t sum = 0;
  for (int64_t i = -20; i < 1000; ++i) sum += i;
  RunResult total = run_script("BEGIN { $s = 0; for ($i : -20..1000) { $s += $i; } printf(\"%d\\n\", $s); exit(); }");
  CHECK(printed_lines(total.out) == std::vector<std::string>{std::to_string(sum)});

  // 200,000 iterations: more than a bounded loop's verification could walk (a million
  // instructions); bpf_loop's callback is checked once.
  int64_t big = 0;
  for (int64_t i = 0; i < 200000; ++i) big += i & 7;
  RunResult many = run_script("BEGIN { $s = 0; for ($i : 0..200000) { $s += $i & 7; } printf(\"%d\\n\", $s); exit(); }");
  CHECK(printed_lines(many.out) == std::vector<std::string>{std::to_string(big)});

  // An empty range runs no iteration; the bpftrace 0.26 form without parentheses.
  RunResult empty = run_script("BEGIN { $n = 0; for $i : 5..2 { $n++; } for $i : 3..3 { $n++; } printf(\"%d\\n\", $n); exit(); }");
  CHECK(printed_lines(empty.out) == std::vector<std::string>{"0"});
}

TEST_CASE("break and continue in both kinds of for loop, and in while") {
  if (checked_interpreter_refusal()) return;
  // The same loop computed here: skip multiples of 3, stop at 50.
  int expected = 0;
  for (int i = 0; i < 100; ++i) {
    if (i % 3 == 0) continue;
    if (i >= 50) break;
    ++expected;
  }
  const std::string body = "if ($i % 3 == 0) { continue; } if ($i >= 50) { break; } $n++;";
  RunResult range = run_script("BEGIN { $n = 0; for ($i : 0..100) { " + body + " } printf(\"%d\\n\", $n); exit(); }");
  CHECK(printed_lines(range.out) == std::vector<std::string>{std::to_string(expected)});
  // while: docs/language.md's example (print 0 up to the first $i > 5, then break), and a
  // continue that skips one of ten iterations; expected values from the same loops here.
  std::string printed;
  for (int i = 0; i <= 100; ++i) {
    printed += std::to_string(i) + " ";
    if (i > 5) break;
  }
  RunResult docs = run_script("BEGIN { $i = 0; while ($i <= 100) { printf(\"%d \", $i); if ($i > 5) { break; } $i++ } "
                              "printf(\"\\n\"); exit(); }");
  CHECK(printed_lines(docs.out) == std::vector<std::string>{printed});
  int counted = 0;
  for (int i = 1; i <= 10; ++i) counted += i != 4;
  RunResult skip = run_script("BEGIN { $i = 0; $n = 0; while ($i < 10) { $i++; if ($i == 4) { continue; } $n++; } "
                              "printf(\"%d\\n\", $n); exit(); }");
  CHECK(printed_lines(skip.out) == std::vector<std::string>{std::to_string(counted)});

  // Over a map: 30 keys; continue skips the even ones; break stops after 5 counted entries.
  std::string fill;
  int odd_keys = 0;
  for (int k = 1; k <= 30; ++k) {
    fill += "@m[" + std::to_string(k) + "] = 1; ";
    odd_keys += k % 2;
  }
  const int stop_at = 5;
  RunResult odd = run_script("BEGIN { " + fill + "$n = 0; for ($kv : @m) { if ($kv.0 % 2 == 0) { continue; } $n++; } "
                             "printf(\"%d\\n\", $n); clear(@m); exit(); }");
  CHECK(printed_lines(odd.out) == std::vector<std::string>{std::to_string(odd_keys)});
  RunResult five = run_script("BEGIN { " + fill + "$n = 0; for ($kv : @m) { $n++; if ($n == " + std::to_string(stop_at) + ") { break; } } "
                              "printf(\"%d\\n\", $n); clear(@m); exit(); }");
  CHECK(printed_lines(five.out) == std::vector<std::string>{std::to_string(stop_at)});
}

TEST_CASE("loops nest; exit() and return inside a body end the probe") {
  if (checked_interpreter_refusal()) return;
  // 4 x 3 iterations, each adding the outer and the inner index.
  int64_t sum = 0;
  for (int i = 0; i < 4; ++i)
    for (int j = 10; j < 13; ++j) sum += i + j;
  RunResult nested = run_script("BEGIN { $s = 0; for ($i : 0..4) { for ($j : 10..13) { $s += $i + $j; } } "
                                "printf(\"%d\\n\", $s); exit(); }");
  CHECK(printed_lines(nested.out) == std::vector<std::string>{std::to_string(sum)});

  // The iterations before the one that ends the probe print; "after" never does.
  for (const char* how : {"exit()", "return"}) {
    const int last = 3;
    std::vector<std::string> before;
    for (int i = 0; i < last; ++i) before.push_back(std::to_string(i));
    RunResult ended = run_script("BEGIN { for ($i : 0..10) { if ($i == " + std::to_string(last) + ") { " + how +
                                 "; } printf(\"%d\\n\", $i); } printf(\"after\\n\"); } interval:ms:50 { exit(); }");
    CHECK(printed_lines(ended.out) == before);
  }
}

TEST_CASE("a loop body reads the probe's context: a tracepoint's args") {
  if (checked_interpreter_refusal()) return;
  // echo writes its argument and a newline: count is that length, seen in every iteration.
  const std::string word = "loops";
  RunResult r = run_rawprobe({"-c", "/bin/echo " + word, "-e",
                              "tracepoint:syscalls:sys_enter_write /pid == cpid/ { for ($i : 0..3) { @w[$i] = args.count; } }"});
  INFO(r.err);
  CHECK(r.status == 0);
  std::string n = std::to_string(word.size() + 1);
  CHECK(r.out.find("@w[0]: " + n + "\n@w[1]: " + n + "\n@w[2]: " + n + "\n") != std::string::npos);
}

TEST_CASE("for loops: what is refused, and why") {
  struct Case {
    std::string script, message;
  };
  for (const Case& c : std::vector<Case>{
           {"BEGIN { @c[1] = count(); for ($kv : @c) { print($kv.1); } }", "values are kept per CPU"},
           {"BEGIN { $kv = 1; @m[1] = 2; for ($kv : @m) { } }", "Loop declaration shadows existing variable: $kv"},
           {"BEGIN { for ($i : \"a\"..3) { } }", "a for loop's range needs integers"},
           {"BEGIN { @m[1] = 1; for ($kv : @m[1]) { } }", "a for loop iterates over a whole map"},
           {"BEGIN { for ($i : 0 .. ) { } }", "expected an expression"},
       }) {
    RunResult r = run_rawprobe({"-e", c.script});
    CAPTURE(c.script);
    CHECK(r.status == 1);
    CHECK(r.err.find(c.message) != std::string::npos);
  }
  // Kernels before bpf_loop (5.17) and bpf_for_each_map_elem (5.13), as their feature probes
  // would find them.
  RunResult range = run({"env", "RAWPROBE_PRETEND_MISSING=loop", rawprobe_path(), "-e", "BEGIN { for ($i : 0..3) { } exit(); }"});
  CHECK(range.status == 1);
  CHECK(range.err.find("bpf_loop helper (Linux 5.17)") != std::string::npos);
  RunResult map = run({"env", "RAWPROBE_PRETEND_MISSING=for_each_map_elem", rawprobe_path(), "-e",
                       "BEGIN { @m[1] = 1; for ($kv : @m) { } exit(); }"});
  CHECK(map.status == 1);
  CHECK(map.err.find("bpf_for_each_map_elem helper (Linux 5.13)") != std::string::npos);
}

TEST_CASE("opensnoop's getcwd loop (bpftrace v0.26.1 tools/opensnoop.bt) names this directory") {
  // The tool's loop, `.` on pointers written `->` (0.17's form): it walks the dentries of
  // the task's cwd up to the root, crossing mounts, and stores one name per depth. Joined
  // in reverse without the mount roots' "/", the names are the directory the script ran in.
  char dir_template[] = "/tmp/rawprobe_loops_XXXXXX";
  REQUIRE(::mkdtemp(dir_template));
  std::string dir = std::string(dir_template) + "/deeper";
  REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
  const std::string script =
      "BEGIN { $dentry = curtask->fs->pwd.dentry; $vfsmnt = curtask->fs->pwd.mnt;"
      " $mnt = (struct mount *)(((uint64)$vfsmnt) - offsetof(struct mount, mnt)); $mnt_root = $vfsmnt->mnt_root;"
      " for $j : ((uint64)0)..((uint64)35) {"
      "   @paths[tid,$j] = str($dentry->d_name.name); $parent_dentry = $dentry->d_parent;"
      "   if ($dentry == $parent_dentry || $dentry == $mnt_root) {"
      "     $mnt_parent = (struct mount *)$mnt->mnt_parent; if ($mnt == $mnt_parent) { break; }"
      "     $dentry = $mnt->mnt_mountpoint; $mnt = $mnt_parent; $mnt_root = $mnt->mnt.mnt_root; continue; }"
      "   $dentry = $parent_dentry; }"
      " for ($kv : @paths) { printf(\"%d %s\\n\", $kv.0.1, $kv.1); } clear(@paths); exit(); }";
  // curtask's struct task_struct comes from the kernel's BTF; the loops are callbacks.
  if (!kernel_btf_present() || kernel_interprets_bpf()) {
    ::rmdir(dir.c_str());
    ::rmdir(dir_template);
    if (!kernel_btf_present()) return check_refused_without_btf({"-e", script});
    REQUIRE(checked_interpreter_refusal());
    return;
  }
  RunResult r = run({"sh", "-c", "cd " + dir + " && exec " + rawprobe_path() + " -e " + shell_quote(script)});
  ::rmdir(dir.c_str());
  ::rmdir(dir_template);
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::map<int, std::string> by_depth;
  for (const std::string& line : printed_lines(r.out)) {
    size_t space = line.find(' ');
    REQUIRE(space != std::string::npos);
    by_depth[std::stoi(line.substr(0, space))] = line.substr(space + 1);
  }
  std::string path;
  for (auto it = by_depth.rbegin(); it != by_depth.rend(); ++it)
    if (it->second != "/") path += "/" + it->second;
  CHECK(path == dir);
}
