// A hash map that reaches its size limit refuses new keys (bpf_map_update_elem: E2BIG). The
// programs count every refused update and rawprobe warns at exit, once per map, instead of
// losing keys without a word. The expected counts come from the run itself: the inserts the
// script makes minus the keys the map holds (its max_entries, read from the kernel's fdinfo of
// the running rawprobe, and the keys printed at exit).
#include <doctest/doctest.h>

#include <map>
#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// max_entries of the running process's maps of kernel type `map_type`.
std::vector<long> max_entries_of(pid_t pid, int map_type) {
  std::vector<long> out;
  static const std::regex type_re(R"(map_type:\s*(\d+))"), max_re(R"(max_entries:\s*(\d+))");
  for (const std::string& info : fdinfo_of(pid, "anon_inode:bpf-map")) {
    std::smatch t, m;
    if (std::regex_search(info, t, type_re) && std::stoi(t[1]) == map_type && std::regex_search(info, m, max_re))
      out.push_back(std::stol(m[1]));
  }
  return out;
}

long count_lines(const std::string& text, const std::string& prefix) {
  return static_cast<long>(lines_starting(text, prefix).size());
}

std::string warning(long failed, const std::string& map, long max_entries) {
  return "WARNING: Failed to map_update_elem " + std::to_string(failed) + " times for " + map +
         ", which holds at most " + std::to_string(max_entries) + " keys\n";
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("a full hash map: every refused update is counted and reported at exit") {
  const long inserts = 5000;
  Process p({rawprobe_path(), "-e",
             "BEGIN { $i = 0; while ($i < 5000) { @m[$i] = 1; $i++; } printf(\"filled\\n\"); }"
             " interval:ms:500 { exit(); }"});
  REQUIRE(p.wait_for_output("filled\n", 30));
  std::vector<long> hashes = max_entries_of(p.pid(), 1);  // BPF_MAP_TYPE_HASH: @m only
  RunResult r = p.finish(30);
  REQUIRE(hashes.size() == 1);
  long max_entries = hashes[0];
  REQUIRE(max_entries < inserts);
  CHECK(r.status == 0);
  CHECK(count_lines(r.out, "@m[") == max_entries);
  CHECK(r.err == warning(inserts - max_entries, "@m", max_entries));
}

TEST_CASE("a full hash map: the issue's script, values and count() maps, in exit order") {
  const long inserts = 5000;
  RunResult r = run_rawprobe(
      {"-e", "BEGIN { $i = 0; while ($i < 5000) { @m[$i] = 1; @c[$i] = count(); $i++; } exit(); }"});
  CHECK(r.status == 0);
  long kept_m = count_lines(r.out, "@m["), kept_c = count_lines(r.out, "@c[");
  REQUIRE(kept_m > 0);
  REQUIRE(kept_m < inserts);
  CHECK(kept_c == kept_m);  // both have the default size
  CHECK(r.err == warning(inserts - kept_c, "@c", kept_c) + warning(inserts - kept_m, "@m", kept_m));
}

TEST_CASE("a hash map that never fills gives no warning") {
  RunResult r = run_rawprobe({"-e", "BEGIN { $i = 0; while ($i < 100) { @m[$i] = 1; $i++; } exit(); }"});
  CHECK(r.status == 0);
  CHECK(count_lines(r.out, "@m[") == 100);
  CHECK(r.err == "");
}

TEST_SUITE_END();
