// Runs one script under bpftrace 0.17 (the oracle) and under rawprobe with the same flags, and
// checks that they agree (check_against_bpftrace): a run bpftrace takes prints the same stdout under both; a run it
// refuses is refused by rawprobe (exit 1) with the same first message at the same column.
#pragma once
#include <sys/stat.h>

#include <string>
#include <vector>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/oracle_first_error.h"

namespace rawprobe::cli_test {

struct OracleCase {
  std::vector<std::string> flags;
  std::string program;
};

// Runs `program` under `tool` (bpftrace or rawprobe) as a process that first moves itself
// into the cgroup2 group `name` (made here, under the cgroup2 mount, and removed after).
inline RunResult run_in_cgroup2_group(const std::string& name, const std::string& tool, const std::string& program) {
  RunResult findmnt = run({"findmnt", "-n", "-t", "cgroup2", "-o", "TARGET"});
  REQUIRE(findmnt.status == 0);
  std::string mount = findmnt.out.substr(0, findmnt.out.find('\n'));
  REQUIRE(!mount.empty());
  std::string group = mount + "/" + name;
  ::mkdir(group.c_str(), 0755);
  RunResult r = run({"sh", "-c", "echo $$ > " + group + "/cgroup.procs && exec " + tool + " -e " + shell_quote(program)});
  ::rmdir(group.c_str());
  return r;
}

inline void check_against_bpftrace(const std::vector<OracleCase>& cases) {
  for (const OracleCase& c : cases) {
    std::vector<std::string> args = c.flags;
    args.push_back("-e");
    args.push_back(c.program);
    CAPTURE(c.program);
    std::vector<std::string> bt{"bpftrace"};
    bt.insert(bt.end(), args.begin(), args.end());
    RunResult oracle = run(bt);
    RunResult ours = run_rawprobe(args);
    INFO("bpftrace: ", oracle.status, " ", oracle.err);
    INFO("rawprobe: ", ours.status, " ", ours.err);
    if (oracle.status == 0) {
      CHECK(ours.status == 0);
      CHECK(ours.out == oracle.out);
    } else {
      CHECK(ours.status == 1);
      CHECK(first_error(ours.err) == first_error(oracle.err));
    }
  }
}

}  // namespace rawprobe::cli_test
