// The size requirement: the kernel's xlated instruction count of each program we
// generate is no larger than bpftrace 0.17's for the same script. bpftrace -v names each
// program's id before attaching it ("Program ID: N" then "Attaching PROBE"); bpftool reads its
// xlated size while bpftrace runs; ours comes from BPF_OBJ_GET_INFO_BY_FD on the same kernel.
// Two differences are allowed, and counted in our own program:
// - each map update that can fail adds its failure to `.mapfail` (r0 >>= 63, a map value
//   address, an atomic add: 4 slots), where bpftrace 0.17 loses the key without a word;
// - one program serves all of a block's probes and reads which one fired from the attach
//   cookie (a call to bpf_get_attach_cookie: 1 slot), where bpftrace 0.17 loads one program
//   per probe with the probe as a constant.
#include <signal.h>

#include <regex>
#include <sstream>

#include "engine/sys/bpf_info.h"
#include "tests/kernel/cli_run.h"
#include "tests/kernel/codegen_test_support.h"
#include "tests/unit/arch_oracle.h"

using namespace rawprobe;
using namespace rawprobe::codegen;
using rawprobe::cli_test::shell_quote;

namespace {

// probe name -> bpftrace's xlated instruction count, for every program it attached.
std::map<std::string, size_t> bpftrace_sizes(const std::string& script, size_t points) {
  std::string cmd =
      "log=$(mktemp); timeout 60 bpftrace -v -e " + shell_quote(script) + " >$log 2>&1 & pid=$!; "
      "for i in $(seq 100); do sleep 0.5; [ $(grep -c '^Program ID' $log) -ge " + std::to_string(points) +
      " ] && break; done; grep -E '^Program ID|^Attaching [a-zA-Z]' $log; "
      "for id in $(sed -n 's/^Program ID: //p' $log); do echo \"xlated $id $(bpftool prog show id $id | "
      "grep -o 'xlated [0-9]*B' | tr -dc 0-9)\"; done; kill $pid; wait $pid; rm -f $log";
  auto out = test::run_command(cmd, false);
  std::map<std::string, size_t> bytes_by_id;
  std::map<std::string, std::string> probe_by_id;
  std::string last_id;
  std::istringstream in(out.output);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, std::regex("Program ID: ([0-9]+)"))) last_id = m[1];
    else if (std::regex_match(line, m, std::regex("Attaching (.+)")) && !last_id.empty()) probe_by_id[last_id] = m[1];
    else if (std::regex_match(line, m, std::regex("xlated ([0-9]+) ([0-9]+)"))) bytes_by_id[m[1]] = std::stoul(m[2]);
  }
  // One program may serve several probes: "Attaching uprobe:/x:fun,uprobe:/x:foo".
  // bpftrace -v names no probe for USDT programs: one unnamed program is reported as "".
  std::map<std::string, size_t> sizes;
  std::vector<std::string> unnamed;
  for (const auto& [id, bytes] : bytes_by_id)
    if (!probe_by_id.count(id)) unnamed.push_back(id);
  if (unnamed.size() == 1) sizes[""] = bytes_by_id[unnamed[0]] / 8;
  for (const auto& [id, probes] : probe_by_id) {
    if (!bytes_by_id.count(id)) continue;
    std::istringstream list(probes);
    for (std::string probe; std::getline(list, probe, ',');) sizes[probe] = bytes_by_id[id] / 8;
  }
  return sizes;
}

// Slots our program spends counting failed map updates (engine/codegen/gen_maps.cpp,
// count_failed_update): 4 for each `r0 >>= 63`.
size_t failed_update_slots(const std::vector<bpf::Insn>& xlated) {
  size_t sites = 0;
  for (const bpf::Insn& insn : xlated)
    if (insn.code == (bpf::op::ALU64 | bpf::op::RSH | bpf::op::K) && insn.dst_reg == 0 && insn.imm == 63) ++sites;
  return 4 * sites;
}

// Slots our program spends reading its probe from the attach cookie: the xlated program has
// its helper calls rewritten, so they are counted in the instructions we generated.
size_t cookie_slots(const CompiledProgram& p, const std::vector<int>& map_fds) {
  auto program = p.code.finish(map_fds);
  REQUIRE_MESSAGE(program, p.description);
  size_t calls = 0;
  for (const bpf::Instruction& insn : program->insns)
    if (insn.code == (bpf::op::JMP | bpf::op::CALL) && insn.src == 0 &&
        insn.imm == static_cast<int32_t>(bpf::Helper::get_attach_cookie))
      ++calls;
  return calls;
}

}  // namespace

// These cases need what only the build host has (the dynamic build/rawprobe, the source
// tree's samples/*.bt, bpftrace or bpftool), so the VM guest leaves the suite "host-only"
// out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("codegen: xlated instruction counts are no larger than bpftrace's for the seed scripts") {
  // No silent skip: without the oracle (tests/install-packages installs both) this fails.
  REQUIRE_MESSAGE(test::run_command("command -v bpftrace && command -v bpftool").status == 0,
                  "needs bpftrace and bpftool (tests/install-packages)");
  REQUIRE_MESSAGE(sys::ktest::sample_path("fun")[0] == '/',
                  "set RAWPROBE_SAMPLES to an absolute path (probe names must match bpftrace's)");
  for (const char* name : {"read_rand_threads.bt", "read_rand_reads.bt", "fun_counts.bt", "hello_usdt.bt",
                           "syscall_read_sizes.bt"}) {
    CAPTURE(name);
    // bpftrace must still run when bpftool asks for its programs: a script's own timed exit
    // is pushed back (the period is not part of the program).
    std::string text = test::read_text(std::string("samples/") + name);
    for (size_t at; (at = text.find("interval:s:5 ")) != std::string::npos;) text.replace(at, 13, "interval:s:99 ");
    ktest::Compiled c;
    std::string err = ktest::compile_text(text, c);
    REQUIRE_MESSAGE(err.empty(), err);
    ktest::Loaded l;
    err = ktest::load(c.script, l);
    REQUIRE_MESSAGE(err.empty(), err);
    std::map<std::string, size_t> ours, counting;
    size_t points = 0;
    for (size_t i = 0; i < c.script.programs.size(); ++i) {
      const CompiledProgram& p = c.script.programs[i];
      auto info = sys::prog_info(l.progs[i].get());
      REQUIRE(info);
      for (size_t index : p.points) {
        ours[c.points[p.block][index].name] = info->xlated.size();
        counting[c.points[p.block][index].name] = failed_update_slots(info->xlated) + cookie_slots(p, l.map_fds);
      }
      points += p.points.size();
    }
    auto theirs = bpftrace_sizes(c.source->text(), points);
    REQUIRE_MESSAGE(!theirs.empty(), "bpftrace attached nothing");
    if (theirs.count("") && ours.size() == 1) {  // a one-probe USDT script
      theirs[ours.begin()->first] = theirs[""];
    }
    for (const auto& [probe, size] : theirs) {
      CAPTURE(probe);
      if (!ours.count(probe)) continue;  // bpftrace's own BEGIN/END helpers
      MESSAGE(std::string(name) << " " << probe << ": rawprobe " << ours[probe] << " (" << counting[probe]
                                << " counting failed updates or reading the cookie), bpftrace " << size);
      CHECK(ours[probe] - counting[probe] <= size);
    }
  }
}

TEST_SUITE_END();
