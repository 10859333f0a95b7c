// Functions of bpftrace 0.22 to 0.26.1's standard library (docs/stdlib.md of bpftrace v0.26.1),
// run for real: has_key, delete(@m, k) and its value, @m[a, b] read as @m[(a, b)], ppid, pcomm,
// has_cpid, syscall_name, the is_* type tests, and the refusals of dw_ustack and skboutput. The
// expected values come from the script's own input, from the kernel (a syscall's return value,
// the number a syscall tracepoint records), or from bpftrace 0.17 for the forms it shares.
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "arch/arch.h"
#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// The output's lines, without the empty ones.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines = lines_starting(text, "");
  std::erase(lines, std::string());
  return lines;
}

std::vector<std::string> fields_of(const std::string& line, char sep) {
  std::vector<std::string> f;
  std::stringstream in(line);
  for (std::string w; std::getline(in, w, sep);) f.push_back(w);
  return f;
}

// Runs `script` and returns its lines split at '|', those of at least `min_fields` fields.
std::vector<std::vector<std::string>> printed_records(const std::string& script, size_t min_fields) {
  RunResult r = run_rawprobe({"-e", script});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::vector<std::string>> records;
  for (const std::string& line : lines_of(r.out))
    if (std::vector<std::string> f = fields_of(line, '|'); f.size() >= min_fields) records.push_back(f);
  return records;
}

}  // namespace

TEST_CASE("has_key and delete(@m, k) answer from the map's keys; delete says whether a key went") {
  // docs/stdlib.md: has_key "Return true if the key exists in this map"; delete "If deletion
  // fails (e.g. the key doesn't exist) the function returns false (0)".
  const std::set<int> present = {3, 5, 8};
  std::string script = "BEGIN {";
  for (int k : present) script += " @m[" + std::to_string(k) + "] = " + std::to_string(k * 10) + ";";
  for (int k = 1; k <= 9; ++k) script += " printf(\"has %d %d\\n\", " + std::to_string(k) + ", has_key(@m, " + std::to_string(k) + "));";
  // Delete 5 and 6: the first exists, the second does not; then delete 5 again.
  script += " $a = delete(@m, 5); $b = delete(@m, 6); $c = delete(@m, 5);";
  script += " printf(\"deleted %d %d %d %d\\n\", $a, $b, $c, has_key(@m, 5)); exit(); }";
  RunResult r = run_rawprobe({"-e", script});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> out = lines_of(r.out);
  std::vector<std::string> want = {"Attaching 1 probe..."};
  for (int k = 1; k <= 9; ++k) want.push_back("has " + std::to_string(k) + " " + (present.count(k) ? "1" : "0"));
  want.push_back("deleted 1 0 0 0");
  // What is left is printed at exit: the present keys but 5.
  for (int k : present)
    if (k != 5) want.push_back("@m[" + std::to_string(k) + "]: " + std::to_string(k * 10));
  CHECK(out == want);
}

TEST_CASE("delete(@m, k) with a tuple key, and @m[a, b] read as @m[(a, b)], as bpftrace 0.22 on") {
  // docs/stdlib.md's delete: "For map keys that are composed of multiple values (e.g.
  // @mymap[3, "hello"] = 1 ...) the syntax would be: delete(@mymap, (3, "hello"))".
  RunResult r = run_rawprobe({"-e",
                              "BEGIN { @mymap[3, \"hello\"] = 1; @mymap[4, \"bye\"] = 2; $t = (4, \"bye\");"
                              " @t[$t] = 7; printf(\"%d %d %d\\n\", has_key(@mymap, (3, \"hello\")), has_key(@mymap, $t),"
                              " @t[4, \"bye\"]); $gone = delete(@mymap, (3, \"hello\"));"
                              " printf(\"%d %d\\n\", $gone, has_key(@mymap, (3, \"hello\"))); delete(@t, 4, \"bye\"); exit(); }"});
  // Three arguments are one too many: the key of several parts is one tuple.
  CHECK(r.status == 1);
  CHECK(r.err.find("delete() takes up to 2 arguments (3 provided)") != std::string::npos);
  r = run_rawprobe({"-e",
                    "BEGIN { @mymap[3, \"hello\"] = 1; @mymap[4, \"bye\"] = 2; $t = (4, \"bye\");"
                    " @t[$t] = 7; printf(\"%d %d %d\\n\", has_key(@mymap, (3, \"hello\")), has_key(@mymap, $t),"
                    " @t[4, \"bye\"]); $gone = delete(@mymap, (3, \"hello\"));"
                    " printf(\"%d %d\\n\", $gone, has_key(@mymap, (3, \"hello\"))); delete(@t, (4, \"bye\")); exit(); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(lines_of(r.out) == std::vector<std::string>{"Attaching 1 probe...", "1 1 7", "1 0", "@mymap[4, bye]: 2"});
}

TEST_CASE("delete and has_key refuse a map without keys or a first argument that is not a map") {
  for (const char* script : {"BEGIN { @s = 1; $x = has_key(@s, 1); }", "BEGIN { @m[1] = 1; delete(@m[1], 1); }",
                             "BEGIN { $x = has_key(1, 2); }"}) {
    CAPTURE(script);
    RunResult r = run_rawprobe({"--dry-run", "-e", script});
    CHECK(r.status == 1);
    CHECK(r.err.find("error: ") != std::string::npos);
  }
  RunResult r = run_rawprobe({"--dry-run", "-e", "BEGIN { @m[1] = 1; delete(@m[1], 1); }"});
  CHECK(r.err.find("delete() expects a map without keys as its first argument and the key as its second") !=
        std::string::npos);
}

TEST_SUITE_BEGIN("host-only");

TEST_CASE("oracle: delete(@m[k]) still works as in bpftrace 0.17") {
  std::string script = "BEGIN { @m[1] = 1; @m[2] = 2; delete(@m[1]); exit(); }";
  RunResult oracle = run({"bpftrace", "-e", script});
  RunResult ours = run_rawprobe({"-e", script});
  REQUIRE(oracle.status == 0);
  CHECK(ours.status == 0);
  CHECK(ours.out == oracle.out);
}

TEST_CASE("ppid and pcomm are the kernel's parent pid and group leader's name") {
  // A thread named "worker" of a python3 process calls getppid(): the syscall's own return
  // value is ppid's oracle, the name exec gave the process pcomm's, and comm is the thread's.
  std::string child =
      "/usr/bin/python3 -c \"import ctypes, os, threading\n"
      "def work():\n"
      "    ctypes.CDLL(None).prctl(15, b'worker')\n"
      "    os.getppid()\n"
      "t = threading.Thread(target=work); t.start(); t.join()\"";
  RunResult r = run_rawprobe(
      {"-c", child, "-e",
       "tracepoint:syscalls:sys_exit_getppid /pid == cpid/ { printf(\"%d %d %d %s %s %d\\n\", args.ret, ppid, ppid(curtask),"
       " pcomm, comm, has_cpid); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> out = lines_of(r.out);
  REQUIRE(out.size() == 2);
  std::istringstream fields(out[1]);
  long ret = 0, ppid = 0, ppid_of_task = 0, has_cpid = 0;
  std::string pcomm, comm;
  fields >> ret >> ppid >> ppid_of_task >> pcomm >> comm >> has_cpid;
  CHECK(ret > 1);
  CHECK(ppid == ret);
  CHECK(ppid_of_task == ret);
  CHECK(pcomm == "python3");
  CHECK(comm == "worker");
  CHECK(has_cpid == 1);
  // Without -c there is no child: has_cpid is false, as cpid is 0.
  r = run_rawprobe({"-e", "BEGIN { printf(\"%d\\n\", has_cpid); exit(); }"});
  CHECK(lines_of(r.out) == std::vector<std::string>{"Attaching 1 probe...", "0"});
}

TEST_CASE("syscall_name names the number a syscall tracepoint records, as the kernel names it") {
  // Each sys_enter_NAME tracepoint records its syscall's number in __syscall_nr: the kernel's
  // own pairing of number and name is the oracle for every syscall the child makes.
  RunResult r = run_rawprobe(
      {"-c", "/usr/bin/python3 -c 'import os; os.getppid(); os.getpid(); os.close(os.open(\"/\", 0))'", "-e",
       "tracepoint:syscalls:sys_enter_get*,tracepoint:syscalls:sys_enter_open*,tracepoint:syscalls:sys_enter_read*,"
       "tracepoint:syscalls:sys_enter_close,tracepoint:syscalls:sys_enter_newfstat*,tracepoint:syscalls:sys_enter_mmap"
       " /pid == cpid/ { @[probe, syscall_name(args.__syscall_nr)] = count(); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  size_t checked = 0;
  std::set<std::string> seen;
  for (const std::string& line : lines_of(r.out)) {
    const std::string prefix = "@[tracepoint:syscalls:sys_enter_";
    if (line.rfind(prefix, 0) != 0) continue;
    size_t comma = line.find(", "), close = line.find("]:");
    REQUIRE(comma != std::string::npos);
    REQUIRE(close != std::string::npos);
    std::string tracepoint_name = line.substr(prefix.size(), comma - prefix.size());
    std::string named = line.substr(comma + 2, close - comma - 2);
    CHECK_MESSAGE(named == tracepoint_name, line);
    seen.insert(named);
    ++checked;
  }
  CHECK(checked >= 5);
  for (const char* call : {"getppid", "getpid", "openat", "close", "read"}) CHECK_MESSAGE(seen.count(call), call);
}

TEST_SUITE_END();

TEST_CASE("functions without arguments are used bare, and the is_* tests answer from the argument's type") {
  // docs/stdlib.md: "all functions or macros that don't have arguments or have default arguments
  // can be invoked with or without the call syntax".
  const std::vector<std::string> args =
      {"-e",
       "BEGIN { $s = \"str\"; $i = -1; $u = (uint8)1; $p = curtask;"
       " printf(\"%d %d\\n\", ppid == ppid(), pcomm == pcomm());"
       " printf(\"%d %d %d %d\\n\", is_integer($i), is_integer($u), is_integer($s), is_integer($p));"
       " printf(\"%d %d %d\\n\", is_unsigned_integer($i), is_unsigned_integer($u), is_unsigned_integer(pid));"
       " printf(\"%d %d %d\\n\", is_str($s), is_str(comm), is_str($i));"
       " printf(\"%d %d\\n\", is_ptr($p), is_ptr($i));"
       " printf(\"%d %d\\n\", is_array(((struct task_struct *)curtask)->signal->rlim), is_array($s));"
       " printf(\"%d %d %d\\n\", is_literal(1), is_literal(\"a\"), is_literal($i)); exit(); }"};
  // curtask's struct task_struct comes from the kernel's BTF.
  if (!kernel_btf_present()) return check_refused_without_btf(args);
  RunResult r = run_rawprobe(args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  // Each line: what the values' types say (int64, uint8, string, pointer; pid is a u32;
  // signal_struct's rlim is struct rlimit[16]).
  CHECK(lines_of(r.out) == std::vector<std::string>{"Attaching 1 probe...", "1 1", "1 1 0 0", "0 1 1", "1 1 0",
                                                    "1 0", "1 0", "1 1 0"});
}

TEST_CASE("dw_ustack and skboutput are refused with the reason") {
  RunResult r = run_rawprobe({"--dry-run", "-e", "BEGIN { @[dw_ustack()] = count(); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("LLVM's unwinder") != std::string::npos);
  r = run_rawprobe({"--dry-run", "-e", "BEGIN { $r = skboutput(\"x.pcap\", 0, 10, 0); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("bpf_skb_output()") != std::string::npos);
}

TEST_CASE("exit(code) ends the run with that status, after END and the maps") {
  // docs/stdlib.md: exit "Terminate bpftrace ... The END probe will still trigger (if
  // specified) and maps will be printed. An optional exit code can be provided."
  for (int code : {0, 3, 42}) {
    CAPTURE(code);
    RunResult r = run_rawprobe({"-e", "BEGIN { @n = " + std::to_string(code * 2) + "; $c = @n / 2; exit($c); } END { printf(\"end\\n\"); }"});
    CHECK(r.status == code);
    CHECK(lines_of(r.out) == std::vector<std::string>{"Attaching 2 probes...", "end", "@n: " + std::to_string(code * 2)});
  }
  RunResult r = run_rawprobe({"-e", "BEGIN { exit(); }"});
  CHECK(r.status == 0);
}

TEST_CASE("errorf and warnf print to stderr after the call's place, as docs/stdlib.md shows") {
  // docs/stdlib.md (v0.26.1), errorf: `BEGIN { errorf("Something bad with args: %d, %s", 10, "arg2"); }`
  // prints `stdin:1:9-62: ERROR: Something bad with args: 10, arg2`; rawprobe names an -e
  // program "-e", as its other messages do.
  std::string call = "errorf(\"Something bad with args: %d, %s\", 10, \"arg2\")";
  std::string warn = "warnf(\"Something kinda bad with args: %d, %s\", 10, \"arg2\")";
  std::string script = "BEGIN { " + call + "; " + warn + "; printf(\"out\\n\"); exit(); }";
  RunResult r = run_rawprobe({"-e", script});
  REQUIRE(r.status == 0);
  size_t col = script.find(call) + 1, wcol = script.find(warn) + 1;
  CHECK(col == 9);
  CHECK(col + call.size() == 62);
  CHECK(lines_of(r.err) == std::vector<std::string>{
                               "-e:1:9-62: ERROR: Something bad with args: 10, arg2",
                               "-e:1:" + std::to_string(wcol) + "-" + std::to_string(wcol + warn.size()) +
                                   ": WARNING: Something kinda bad with args: 10, arg2"});
  CHECK(lines_of(r.out) == std::vector<std::string>{"Attaching 1 probe...", "out"});
}

TEST_CASE("probetype names the block's probe type; BEGIN and END are \"special\"") {
  // docs/stdlib.md: probetype is the "Name of the probe type. Note: begin and end probes are of
  // type special". The other names are the probe types' own, as `probe` prints them.
  RunResult r = run_rawprobe({"-e",
                              "BEGIN { printf(\"%s %s\\n\", probetype, probe); }"
                              " interval:ms:1 { printf(\"%s %s\\n\", probetype(), probe); exit(); }"
                              " END { printf(\"%s %s\\n\", probetype, probe); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> out = lines_of(r.out);
  REQUIRE(out.size() == 4);
  CHECK(out[1] == "special BEGIN");
  CHECK(out[2] == "interval interval:ms:1");
  CHECK(out[3] == "special END");
  r = run_rawprobe({"--dry-run", "-e", "BEGIN, interval:ms:1 { printf(\"%s\\n\", probetype); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("probetype in a block of several probe types (special, interval)") != std::string::npos);
}

// strstr, strcap, memcmp, len, usermode, assert and static_assert (bpftrace 0.26.1). Their
// expected values are computed from what the run printed (the strings searched, the bytes
// compared, the map counted), from 0.26.1's stdlib source where the docs leave a detail out
// (quoted), or from the kernel's own accounting (a process's user and system time).

TEST_CASE("strstr is where std::string::find finds the needle in the strings the run printed, -1 for none") {
  // Literal and runtime strings, needles at the start, inside, at the end, longer than the
  // haystack, empty, and absent; comm is the kernel's name for rawprobe.
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"hello-test-world", "test"}, {"hello-test-world", "hello"}, {"hello-test-world", "world"},
      {"hello-test-world", "nope"}, {"abc", "abcd"},               {"abc", ""},
      {"aaab", "aab"},              {"x", "x"},
  };
  std::string script = "BEGIN { ";
  for (const auto& [h, n] : pairs)
    script += "$h = \"" + h + "\"; $n = \"" + n + "\"; printf(\"%s|%s|%d|%d\\n\", $h, $n, strstr($h, $n), strstr($h, \"" +
              n + "\")); ";
  script += "printf(\"%s|%s|%d|%d\\n\", comm, \"probe\", strstr(comm, \"probe\"), strstr(comm, \"probe\")); exit(); }";
  int checked = 0;
  for (std::vector<std::string> f : printed_records(script, 3)) {
    std::string line = f[0] + "|" + f[1];
    if (f.size() == 3) f.insert(f.begin() + 1, "");  // an empty needle prints as nothing
    size_t at = f[0].find(f[1]);
    std::string want = at == std::string::npos ? "-1" : std::to_string(at);
    CHECK_MESSAGE(f[2] == want, line);  // a runtime needle
    CHECK_MESSAGE(f[3] == want, line);  // a literal needle
    ++checked;
  }
  CHECK(checked == int(pairs.size()) + 1);
}

TEST_CASE("strlen counts the bytes before the NUL, as std::string::size does for the strings printed back") {
  const std::vector<std::string> texts = {"", "a", "hello world", "exactly-sixteen!"};
  std::string script = "BEGIN { ";
  for (const std::string& t : texts)
    script += "$s = \"" + t + "\"; printf(\"%s|%d|%d|x\\n\", $s, strlen($s), strcontains($s, \"o\")); ";
  script += "printf(\"%s|%d|%d|x\\n\", comm, strlen(comm), strcontains(comm, \"o\")); exit(); }";
  int checked = 0;
  for (const std::vector<std::string>& f : printed_records(script, 4)) {
    CHECK_MESSAGE(f[1] == std::to_string(f[0].size()), f[0]);
    CHECK_MESSAGE(f[2] == std::to_string(f[0].find('o') != std::string::npos), f[0]);
    ++checked;
  }
  CHECK(checked == int(texts.size()) + 1);
}

TEST_CASE("memcmp has memcmp(3)'s sign, and is the first unequal bytes' difference") {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"abcdef", "abcxef"}, {"abcxef", "abcdef"}, {"same", "same"}, {"zz", "za"}, {"Abc", "abc"}};
  std::string script = "BEGIN { ";
  for (const auto& [a, b] : pairs)
    for (int n = 1; n <= int(std::min(a.size(), b.size())); ++n)
      script += "$a = \"" + a + "\"; $b = \"" + b + "\"; $n = " + std::to_string(n) +
                "; printf(\"%s|%s|%d|%d|%d\\n\", $a, $b, $n, memcmp($a, $b, $n), memcmp($a, $b, " + std::to_string(n) +
                ")); ";
  script += "exit(); }";
  int checked = 0;
  for (const std::vector<std::string>& f : printed_records(script, 5)) {
    std::string line = f[0] + "|" + f[1] + "|" + f[2];
    size_t n = std::stoul(f[2]);
    int c = std::memcmp(f[0].data(), f[1].data(), n);
    int diff = 0;
    for (size_t i = 0; i < n && !diff; ++i) diff = int(uint8_t(f[0][i])) - int(uint8_t(f[1][i]));
    for (int k : {3, 4}) {
      int got = std::stoi(f[size_t(k)]);
      CHECK_MESSAGE((got < 0) == (c < 0), line);
      CHECK_MESSAGE((got == 0) == (c == 0), line);
      CHECK_MESSAGE(got == diff, line);
    }
    ++checked;
  }
  CHECK(checked == 6 + 6 + 4 + 2 + 3);
}

TEST_CASE("strcap is a string's capacity, NUL included: its size, which print shows for a string[N]") {
  // str()'s capacity is the configured string length (BPFTRACE_STRLEN, here 40).
  RunResult r = run({"env", "BPFTRACE_STRLEN=40", rawprobe_path(), "-e",
                     "BEGIN { $s = \"abcdef\"; printf(\"%d %d %d %d\\n\", strcap($s), strcap(\"/\"), strcap(comm), "
                     "strcap(str((uint64)curtask))); static_assert(strcap(\"ab\") == 3, \"cap\"); exit(); }"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  // "abcdef" and "/" with their NULs; comm is the kernel's TASK_COMM_LEN (16).
  CHECK(lines_of(r.out).at(1) == std::to_string(std::strlen("abcdef") + 1) + " " + std::to_string(std::strlen("/") + 1) +
                                     " 16 40");
}

TEST_CASE("len(@m) is the number of elements the map prints") {
  if (checked_interpreter_refusal()) return;
  for (int n : {1, 7, 40}) {
    CAPTURE(n);
    RunResult r = run_rawprobe({"-e", "BEGIN { for $i : 0.." + std::to_string(n) +
                                          " { @m[$i * 3] = $i; } @c[comm] = count(); delete(@m, 0); "
                                          "printf(\"len %d %d\\n\", len(@m), len(@c)); exit(); }"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    std::vector<std::string> lines = lines_of(r.out);
    int printed = int(std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("@m["); }));
    int counts = int(std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("@c["); }));
    CHECK(printed == n - 1);
    CHECK(lines.at(1) == "len " + std::to_string(printed) + " " + std::to_string(counts));
  }
}

// Host-only: in the VM guests /bin/true is a static busybox built without frame pointers, and
// there the two helpers' walks of its user stack were seen to disagree (len 2, print 1 frame;
// on 6.1 no user frame printed at all). Not yet explained: see the README's "Not there yet".
TEST_CASE("len(kstack) and len(ustack) are the frames print() shows of the same stack" *
          doctest::test_suite("host-only")) {
  // At the exit_group of a child: both stacks are taken at the same place, once for len()
  // (bpf_get_stack) and once for print() (bpf_get_stackid).
  RunResult r = run_rawprobe({"-c", "/bin/true", "-e",
                              "tracepoint:syscalls:sys_enter_exit_group /pid == cpid/ { printf(\"%d %d %d\\n\", len(kstack), "
                              "len(ustack), len(kstack(2))); print(kstack); print(ustack); exit(); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> lines = lines_starting(r.out, "");
  // The numbers, then the kstack's frames, a blank line, the ustack's frames (each frame
  // indented by 8 spaces).
  auto numbers = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return !l.empty() && std::isdigit(l[0]); });
  REQUIRE(numbers != lines.end());
  std::vector<int> frames;
  bool in_stack = false;
  for (auto it = numbers + 1; it != lines.end(); ++it) {
    bool frame = it->starts_with("        ");
    if (frame && !in_stack) frames.push_back(0);
    if (frame) ++frames.back();
    in_stack = frame;
  }
  REQUIRE(frames.size() == 2);
  std::istringstream said(*numbers);
  int kernel = -1, user = -1, limited = -1;
  said >> kernel >> user >> limited;
  CHECK(kernel == frames[0]);
  CHECK(user == frames[1]);
  CHECK(limited == std::min(2, frames[0]));
}

TEST_CASE("assert prints base.bt's message and ends the run with status 1; a true one does nothing") {
  // bpftrace v0.26.1 src/stdlib/base.bt: `if (!$cond) { printf("Assertion failed. Msg: %s", $msg); exit(1); }`
  RunResult r = run_rawprobe({"-e", "BEGIN { assert(pid == pid, \"fine\"); printf(\"after\\n\"); "
                                    "$m = \"pid is not 0\"; assert(pid == 0, $m); printf(\"not here\\n\"); }"
                                    " END { printf(\"|end\\n\"); }"});
  CHECK(r.status == 1);
  CHECK(lines_of(r.out) == std::vector<std::string>{"Attaching 2 probes...", "after", "Assertion failed. Msg: pid is not 0|end"});
  r = run_rawprobe({"-e", "BEGIN { assert(comm, \"x\"); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("assert()'s condition must be a bool or an integer (string[16] given)") != std::string::npos);
}

TEST_CASE("static_assert stops the script with its message; its condition must be known when checked") {
  RunResult r = run_rawprobe({"-e", "BEGIN { static_assert(sizeof(comm) == 16, \"comm\"); static_assert(1 + 1 == 3, \"math\"); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("-e:1:52: error: static assertion failed: math") != std::string::npos);
  CHECK(r.err.find("failed: comm") == std::string::npos);  // the true one says nothing
  r = run_rawprobe({"-e", "BEGIN { assert_str(comm); assert_str(pid); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("-e:1:38: error: string-like values must be either strings, arrays or pointers") != std::string::npos);
  r = run_rawprobe({"-e", "BEGIN { static_assert(pid == 1, \"pid\"); }"});
  CHECK(r.status == 1);
  CHECK(r.err.find("static_assert()'s condition must be known when the script is checked") != std::string::npos);
}

TEST_CASE("usermode agrees with the kernel's user and system time of what the profile probe interrupted") {
  // bpftrace 0.26.1's usermode reads x86's cs; elsewhere both refuse it, and so must we.
  if (rawprobe::arch::host().name != "x86_64") {
    RunResult refused = run_rawprobe({"-e", "profile:hz:99 { @[usermode] = count(); }"});
    CHECK(refused.status == 1);
    CHECK(refused.err.find("usermode is only available on x86_64, as in bpftrace (this machine is " +
                           std::string(rawprobe::arch::host().name) + ")") != std::string::npos);
    return;
  }
  // A shell loop runs in user space; dd copying /dev/zero runs mostly in the kernel. Sampled at
  // 997 Hz, each one's share of usermode == 1 samples lies near its share of user time in
  // /proc/PID/stat (utime and stime, fields 14 and 15).
  Process spin({"sh", "-c", "while :; do :; done"});
  Process copy({"dd", "if=/dev/zero", "of=/dev/null", "bs=1M", "count=100000000"});
  std::string sh_pid = std::to_string(spin.pid()), dd_pid = std::to_string(copy.pid());
  Process tracer({rawprobe_path(), "-e",
                  "profile:hz:997 /pid == " + sh_pid + " || pid == " + dd_pid +
                      "/ { @[comm, usermode] = count(); } BEGIN { printf(\"%d\\n\", usermode); }"});
  REQUIRE(tracer.wait_for_output("Attaching", 60));
  REQUIRE(tracer.wait_for_output("\n1\n", 30));  // BEGIN: a special probe is user mode (arch.bt)
  std::this_thread::sleep_for(std::chrono::seconds(3));
  auto user_share = [](pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), {});
    std::istringstream rest(stat.substr(stat.rfind(')') + 2));
    std::vector<std::string> f;
    for (std::string w; rest >> w;) f.push_back(w);
    double utime = std::stod(f.at(11)), stime = std::stod(f.at(12));  // fields 14 and 15
    return utime / std::max(1.0, utime + stime);
  };
  double sh_user = user_share(spin.pid()), dd_user = user_share(copy.pid());
  spin.signal(SIGKILL);
  copy.signal(SIGKILL);
  spin.finish(10);
  copy.finish(10);
  tracer.signal(SIGINT);
  RunResult r = tracer.finish(30);
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::map<std::string, double> samples;
  for (const std::string& line : lines_of(r.out)) {
    // @[sh, 1]: 2900
    if (!line.starts_with("@[")) continue;
    std::string comm = line.substr(2, line.find(',') - 2);
    int mode = std::stoi(line.substr(line.find(',') + 2));
    samples[comm + std::to_string(mode)] = std::stod(line.substr(line.find("]: ") + 3));
  }
  auto share = [&](const std::string& comm) {
    double u = samples[comm + "1"], k = samples[comm + "0"];
    REQUIRE(u + k > 100);
    return u / (u + k);
  };
  MESSAGE("sh: user time share " << sh_user << ", usermode share " << share("sh") << "; dd: user time share "
                                  << dd_user << ", usermode share " << share("dd"));
  CHECK(std::abs(share("sh") - sh_user) < 0.25);
  CHECK(std::abs(share("dd") - dd_user) < 0.25);
  CHECK(share("sh") > share("dd") + 0.3);
}
