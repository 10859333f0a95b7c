// The seed's scripts (EXAMPLES.md section 3, paths changed to $RAWPROBE_SAMPLES) through the
// real CLI, with -c on the seed's sample programs. Every expected value comes from the
// samples' own account of what they did (fun's call counts, read_rand's byte counts and
// thread ids, hello_usdt's tv_sec values).
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <set>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

const std::string kThreadTiming =
    "uprobe:BIN:thread_fun { @start[tid] = nsecs; }\n"
    "uretprobe:BIN:thread_fun {\n"
    "  @ns[pid, tid, @start[tid]] = (nsecs - @start[tid]);\n"
    "  delete(@start[tid]);\n"
    "}\n";

const std::string kReads =
    "tracepoint:syscalls:sys_enter_read /comm==\"read_rand\"/ { @start_read[tid] = nsecs; }\n"
    "tracepoint:syscalls:sys_exit_read /comm==\"read_rand\"/ {\n"
    "  @ns_read[pid, tid, @start[tid]] = (nsecs - @start_read[tid]);\n"
    "  @ret[pid, tid, @start[tid]] = args->ret;\n"
    "  delete(@start_read[tid]);\n"
    "}\n";

std::string with_binary(std::string script, const std::string& bin) {
  for (size_t at; (at = script.find("BIN")) != std::string::npos;) script.replace(at, 3, bin);
  return script;
}

// read_rand's own lines: "thread N tid T read R bytes" -> tid -> R.
std::map<long, long> reads_reported(const std::string& out) {
  std::map<long, long> reads;
  std::regex line("thread [0-9]+ tid ([0-9]+) read (-?[0-9]+) bytes");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it)
    reads[std::stol((*it)[1])] = std::stol((*it)[2]);
  return reads;
}

struct KeyedLine {
  long pid, tid, start, value;
};
// "@name[P, T, S]: V" lines.
std::vector<KeyedLine> keyed(const std::string& out, const std::string& name) {
  std::vector<KeyedLine> lines;
  std::regex line(name + "\\[(-?[0-9]+), (-?[0-9]+), (-?[0-9]+)\\]: (-?[0-9]+)");
  for (std::sregex_iterator it(out.begin(), out.end(), line), end; it != end; ++it)
    lines.push_back({std::stol((*it)[1]), std::stol((*it)[2]), std::stol((*it)[3]), std::stol((*it)[4])});
  return lines;
}

}  // namespace

// These cases need what only the build host has (the dynamic build/rawprobe, the source
// tree's samples/*.bt, bpftrace or bpftool), so the VM guest leaves the suite "host-only"
// out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("seed: uprobe+uretprobe thread timing gives one @ns entry per read_rand thread") {
  std::string bin = sample("read_rand");
  RunResult r = run_rawprobe({"-c", bin, "-e", with_binary(kThreadTiming, bin)});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::map<long, long> threads = reads_reported(r.out);
  REQUIRE(threads.size() == 4);
  std::vector<KeyedLine> ns = keyed(r.out, "@ns");
  CHECK(ns.size() == threads.size());
  std::set<long> tids;
  for (const KeyedLine& l : ns) {
    tids.insert(l.tid);
    CHECK(threads.count(l.tid) == 1);
    CHECK(l.start > 0);
    CHECK(l.value > 0);
  }
  CHECK(tids.size() == threads.size());
  // delete() left nothing: @start prints as an empty map (its name never appears with a key).
  CHECK(r.out.find("@start[") == std::string::npos);
}

TEST_CASE("seed: sys_exit_read's @ret equals the bytes each read_rand thread reports") {
  std::string bin = sample("read_rand");
  RunResult r = run_rawprobe({"-c", bin, "-e", with_binary(kThreadTiming + kReads, bin)});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::map<long, long> threads = reads_reported(r.out);
  REQUIRE(threads.size() == 4);
  std::vector<KeyedLine> ret = keyed(r.out, "@ret");
  size_t thread_reads = 0;
  for (const KeyedLine& l : ret) {
    if (l.start == 0) continue;  // reads of the main thread (ld.so), outside thread_fun
    ++thread_reads;
    REQUIRE(threads.count(l.tid) == 1);
    CHECK(l.value == threads[l.tid]);
  }
  CHECK(thread_reads == threads.size());
  CHECK(keyed(r.out, "@ns_read").size() == ret.size());
  CHECK(r.out.find("@start[") == std::string::npos);
  CHECK(r.out.find("@start_read[") == std::string::npos);
}

TEST_CASE("seed: the USDT argument equals hello_usdt's own tv_sec") {
  std::string bin = sample("hello_usdt");
  RunResult r = run_rawprobe({"-c", bin + " 2", "-e",
                          "usdt:" + bin + ":yeet-Im-a-USDT-probe:USDT-test-probe { printf(\"arg0 %d\\n\", arg0); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> ours = lines_starting(r.out, "arg0 ");
  std::vector<std::string> theirs = lines_starting(r.out, "tv_sec ");
  REQUIRE(theirs.size() == 2);
  REQUIRE(ours.size() == theirs.size());
  for (size_t i = 0; i < ours.size(); ++i) CHECK(ours[i].substr(5) == theirs[i].substr(7));
}

TEST_CASE("seed: uprobe counts on fun/foo/bar equal the calls fun reports") {
  std::string bin = sample("fun");
  RunResult r = run_rawprobe({"-c", bin + " 3", "-e",
                          "uprobe:" + bin + ":fun { @fun = count(); } uprobe:" + bin + ":foo { @foo = count(); } "
                          "uprobe:" + bin + ":bar { @bar = count(); }"});
  INFO(r.out, r.err);
  REQUIRE(r.status == 0);
  for (const char* f : {"fun", "foo", "bar"}) {
    long reported = sys::ktest::reported_calls(r.err, f);
    REQUIRE(reported > 0);
    CHECK(r.out.find("@" + std::string(f) + ": " + std::to_string(reported) + "\n") != std::string::npos);
  }
}

TEST_CASE("seed: the typo probe: is refused with a suggestion, and nothing runs") {
  std::string bin = sample("read_rand");
  std::string typo = with_binary(kThreadTiming, bin);
  typo.replace(0, 1, "");  // "uprobe:" -> "probe:", the seed's typo
  RunResult r = run_rawprobe({"-c", bin, "-e", typo});
  CHECK(r.status != 0);
  CHECK(r.err.find("unknown probe type 'probe'; did you mean 'uprobe'?") != std::string::npos);
  CHECK(r.err.find("-e:1:") != std::string::npos);
  CHECK(r.out.find("thread ") == std::string::npos);  // the command never ran
}

TEST_SUITE_END();
