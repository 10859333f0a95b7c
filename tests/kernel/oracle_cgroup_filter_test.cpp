// cgroup_path(id, "filter") against bpftrace 0.17: the filter is a pattern over the hierarchy
// names in which only * is special, so "cpu*" keeps cpu, cpuacct and cpuset, while "cp?",
// "CPU" and "cpuset,unified" (one name, not a list) match nothing and print an empty string.
// The filters run on the root cgroup and, as a run moved into a nested cgroup2 group, on
// that group. rawprobe refuses two filters bpftrace mishandles: a variable (it prints nothing)
// and "" (it crashes).
#include <doctest/doctest.h>

#include "tests/kernel/oracle_compare.h"

using namespace rawprobe::cli_test;

namespace {

// The last four match no hierarchy here.
const std::vector<std::string> kFilters = {"unified", "cpu", "cpu*", "*ed", "c*t", "*u*",
                                           "**", "*", "CPU", "cp?", "cpuset,unified", "nothing"};

// One printf line per filter, then (with `values`) the same filters as map values and
// through print().
std::string filters_program(const std::vector<std::string>& filters, bool values) {
  std::string printfs, maps;
  int n = 0;
  for (const std::string& f : filters) {
    printfs += " printf(\"<%s>\\n\", cgroup_path(cgroup, \"" + f + "\"));";
    maps += " @f" + std::to_string(n++) + " = cgroup_path(1, \"" + f + "\");";
  }
  if (!values) return "BEGIN {" + printfs + " exit(); }";
  return "BEGIN {" + printfs + maps + " print(cgroup_path(cgroup, \"unified\")); exit(); }";
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("oracle: cgroup_path()'s filter picks hierarchies by name pattern, as bpftrace 0.17") {
  check_against_bpftrace({
      {{}, filters_program(kFilters, true)},
      // bpftrace 0.17 writes a cgroup path as a map value or print() value in JSON unquoted
      // ({"@f0": unified:/}, and {"@f9": } when empty), which is not JSON; rawprobe quotes
      // it. So JSON compares printf's records.
      {{"-f", "json"}, filters_program(kFilters, false)},
      {{}, "BEGIN { printf(\"%s\\n\", cgroup_path(cgroup, 1)); exit(); }"},
      {{}, "BEGIN { printf(\"%s\\n\", cgroup_path(cgroup, \"a\", 1)); exit(); }"},
  });
}

TEST_CASE("oracle: cgroup_path()'s filter names a nested cgroup2 group, as bpftrace 0.17") {
  std::string program = "BEGIN { printf(\"[%s] [%s] [%s]\\n\", cgroup_path(cgroup, \"unified\"), cgroup_path(cgroup, \"u*\"),"
                        " cgroup_path(cgroup, \"none\")); exit(); }";
  std::vector<std::string> outs;
  for (const std::string& tool : {std::string("bpftrace"), rawprobe_path()}) {
    RunResult r = run_in_cgroup2_group("rawprobe-cgroup-filter-test", tool, program);
    INFO(tool, ": ", r.err);
    CHECK(r.status == 0);
    outs.push_back(r.out);
  }
  CHECK(outs[0].find("[unified:/rawprobe-cgroup-filter-test]") != std::string::npos);
  CHECK(outs[1] == outs[0]);
}

TEST_CASE("cgroup_path() refuses a filter that is not a literal, or is empty") {
  // Each error points at the filter: its column is where the program has it.
  std::string variable = "BEGIN { $f = \"unified\"; printf(\"%s\\n\", cgroup_path(cgroup, $f)); exit(); }";
  RunResult var = run_rawprobe({"-e", variable});
  CHECK(var.status == 1);
  CHECK(first_error(var.err).rfind("1:" + std::to_string(variable.find("$f)") + 1) +
                                       ": cgroup_path() needs its filter as a string literal", 0) == 0);
  std::string empty = "BEGIN { printf(\"%s\\n\", cgroup_path(cgroup, \"\")); exit(); }";
  RunResult none = run_rawprobe({"-e", empty});
  CHECK(none.status == 1);
  CHECK(first_error(none.err).rfind("1:" + std::to_string(empty.find("\"\")") + 1) + ": cgroup_path()'s filter is empty", 0) == 0);
}
