// Separate debug files in `-l`, `-lv` and attaching, on libc with Debian's libc6-dbg (a test
// package): the listing equals bpftrace 0.17's and readelf's (libc's .dynsym plus the debug
// file's .symtab), except the *.part.N clones bpftrace drops; a debug-only function's -lv
// lines are readelf's numbers; debug-only functions attach and count a workload's calls.
#include <doctest/doctest.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "elf/hex.h"
#include "tests/kernel/cli_run.h"
#include "tests/unit/elf_test_support.h"
#include "tests/unit/probes_capture.h"

using namespace rawprobe;
using elf::test::lines;
using elf::test::run;

namespace {

// libc as the compiler finds it, symlinks resolved (both tools print the path they are given).
std::string libc_path() {
  std::string found = elf::test::system_library("libc.so.6");
  char real[PATH_MAX];
  REQUIRE_MESSAGE(::realpath(found.c_str(), real), "no libc.so.6 at " << found);
  return real;
}

// libc6-dbg's file for this libc, named by the build ID readelf prints.
std::string debug_file_of(const std::string& lib) {
  std::smatch m;
  std::string notes = run("readelf -n " + lib);
  REQUIRE_MESSAGE(std::regex_search(notes, m, std::regex("Build ID: ([0-9a-f]+)")), lib);
  std::string id = m[1];
  std::string path = "/usr/lib/debug/.build-id/" + id.substr(0, 2) + "/" + id.substr(2) + ".debug";
  REQUIRE_MESSAGE(::access(path.c_str(), R_OK) == 0,
                  path << " is missing: install libc6-dbg (make test-deps)");
  return path;
}

struct ReadelfSymbol {
  uint64_t value = 0, size = 0;
  std::string binding;
};

// Defined FUNC/IFUNC symbols of one readelf table (`--dyn-syms` or `--syms`), by name as
// readelf prints it; with `strip_version`, .dynsym's "@@GLIBC_2.2.5" (readelf adds it from
// .gnu.version; the table itself holds the plain name) is cut.
std::map<std::string, ReadelfSymbol> readelf_functions(const std::string& table, const std::string& file,
                                                      bool strip_version) {
  std::map<std::string, ReadelfSymbol> out;
  std::regex row(R"(^\s*\d+:\s+([0-9a-f]+)\s+(\d+)\s+(FUNC|IFUNC)\s+(\w+)\s+\w+\s+(\w+)\s+(\S+))");
  for (const std::string& line : lines(run("readelf -W " + table + " " + file + " 2>/dev/null"))) {
    std::smatch m;
    if (!std::regex_search(line, m, row) || m[5] == "UND" || std::stoull(m[1], nullptr, 16) == 0)
      continue;
    std::string name = m[6];
    if (strip_version) name = name.substr(0, name.find('@'));
    out[name] = {std::stoull(m[1], nullptr, 16), std::stoull(m[2]), m[4]};
  }
  return out;
}

std::set<std::string> listed_lines(const std::string& text, const std::string& prefix) {
  std::vector<std::string> found = cli_test::lines_starting(text, prefix);
  return {found.begin(), found.end()};
}

}  // namespace

// bpftrace and libc6-dbg are on the build host only (the VM guest has neither).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("uprobe/uretprobe -l of libc with its debug file equals readelf, and bpftrace less *.part.N") {
  std::string libc = libc_path(), debug = debug_file_of(libc);
  std::map<std::string, ReadelfSymbol> dynsym = readelf_functions("--dyn-syms", libc, true);
  std::map<std::string, ReadelfSymbol> symtab = readelf_functions("--syms", debug, false);
  REQUIRE(dynsym.size() > 1000);
  REQUIRE(symtab.size() > dynsym.size());
  for (std::string provider : {"uprobe", "uretprobe"}) {
    CAPTURE(provider);
    std::string prefix = provider + ":" + libc + ":";
    std::set<std::string> expected;
    for (const auto* table : {&dynsym, &symtab})
      for (const auto& [name, _] : *table) expected.insert(prefix + name);
    std::set<std::string> mine = listed_lines(probes::test::listed(prefix + "*"), prefix);
    CHECK(mine == expected);

    std::set<std::string> oracle =
        listed_lines(probes::test::command_output("bpftrace -l '" + prefix + "*' 2>/dev/null"), prefix);
    std::set<std::string> only_mine, only_bpftrace, part_clones;
    for (const std::string& l : mine)
      if (!oracle.count(l)) only_mine.insert(l);
    for (const std::string& l : oracle)
      if (!mine.count(l)) only_bpftrace.insert(l);
    for (const std::string& l : mine)
      if (l.find(".part.") != std::string::npos) part_clones.insert(l);
    CHECK_MESSAGE(only_bpftrace.empty(), "first: " << (only_bpftrace.empty() ? "" : *only_bpftrace.begin()));
    // bpftrace 0.17 skips every name holding ".part." (ProbeMatcher: "can't be traced"); they
    // are local functions with code, and attach (the last case below).
    CHECK(only_mine == part_clones);
    CHECK_FALSE(part_clones.empty());
    MESSAGE(provider << ": " << mine.size() << " listed, " << oracle.size() << " by bpftrace, "
                     << mine.size() - dynsym.size() << " beyond .dynsym");
  }
}

TEST_CASE("-lv of a debug-only libc function: readelf's address and size, the offset through libc's PT_LOAD") {
  std::string libc = libc_path(), debug = debug_file_of(libc);
  // new_do_write: static in glibc's fileops.c, so only the debug file names it.
  std::map<std::string, ReadelfSymbol> symtab = readelf_functions("--syms", debug, false);
  REQUIRE(symtab.count("new_do_write"));
  REQUIRE_FALSE(readelf_functions("--dyn-syms", libc, true).count("new_do_write"));
  const ReadelfSymbol& sym = symtab["new_do_write"];
  // The debug file's segments have no bytes (NOBITS): the offset comes from libc's own.
  uint64_t offset = 0;
  bool placed = false;
  std::regex load(R"(^\s*LOAD\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+R E)");
  for (const std::string& line : lines(run("readelf -lW " + libc))) {
    std::smatch m;
    if (!std::regex_search(line, m, load)) continue;
    uint64_t off = std::stoull(m[1], nullptr, 16), vaddr = std::stoull(m[2], nullptr, 16),
             filesz = std::stoull(m[3], nullptr, 16);
    if (sym.value >= vaddr && sym.value < vaddr + filesz) {
      offset = sym.value - vaddr + off;
      placed = true;
    }
  }
  REQUIRE(placed);
  std::string text = probes::test::listed("uprobe:" + libc + ":new_do_write", true);
  std::vector<std::string> got = lines(text);
  REQUIRE(got.size() > 3);
  CHECK(got[0] == "uprobe:" + libc + ":new_do_write");
  CHECK(got[1].rfind("    address " + elf::hex(sym.value) + ", size " + std::to_string(sym.size) +
                         ", file offset " + elf::hex(offset) + " in PT_LOAD[",
                     0) == 0);
  CHECK(got[2] == "    symbol new_do_write " + sym.binding + " from debug-symtab (debug file " + debug + ")");
  CHECK(got[3].rfind("    +0 ", 0) == 0);  // one function: its disassembly follows
}

TEST_CASE("debug-only libc functions attach: a workload's calls are counted") {
  std::string libc = libc_path();
  debug_file_of(libc);
  std::string u = "uprobe:" + libc + ":", ur = "uretprobe:" + libc + ":";
  // __libc_start_call_main calls main (once a process), new_do_write flushes stdio,
  // _int_malloc is malloc's slow path, tcache_init.part.0 a clone bpftrace does not list.
  std::string script = u + "__libc_start_call_main, " + u + "new_do_write, " + u + "_int_malloc, " + u +
                       "tcache_init.part.0, " + ur + "_int_malloc { @[probe] = count(); }";
  cli_test::RunResult r = cli_test::run_rawprobe({"-e", script, "-c", "/bin/ls -l /usr/bin"});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  std::map<std::string, long> counts;
  std::regex row(R"(^@\[(\S+)\]: (\d+)$)");
  for (const std::string& line : lines(r.out)) {
    std::smatch m;
    if (std::regex_search(line, m, row)) counts[m[1]] = std::stol(m[2]);
  }
  CAPTURE(r.out);
  CHECK(counts[u + "__libc_start_call_main"] == 1);
  CHECK(counts[u + "new_do_write"] > 0);
  CHECK(counts[u + "_int_malloc"] > 0);
  CHECK(counts[u + "tcache_init.part.0"] > 0);
  CHECK(counts[ur + "_int_malloc"] == counts[u + "_int_malloc"]);
}

// The kernel's uprobe decoder refuses some instructions (x86: VEX-encoded AVX ones, with its
// internal ENOTSUPP); in a uprobe_multi link one such offset fails the whole link, and the
// error must say so and how to find the offset. The oracle that the function starts with a VEX
// instruction is objdump's disassembly of its first bytes.
TEST_CASE("a function the kernel cannot probe: uprobe_multi's ENOTSUPP named, the PMU path names the offset") {
  std::string libc = libc_path(), debug = debug_file_of(libc);
  std::map<std::string, ReadelfSymbol> symtab = readelf_functions("--syms", debug, false);
  REQUIRE(symtab.count("__memset_avx2_unaligned"));
  uint64_t at = symtab["__memset_avx2_unaligned"].value;
  std::string dis = run("objdump -d --start-address=" + elf::hex(at) + " --stop-address=" + elf::hex(at + 8) + " " + libc);
  std::smatch first;
  REQUIRE(std::regex_search(dis, first, std::regex(":\\s+(c[45]) [0-9a-f ]+\\s+v[a-z]+")));  // a VEX prefix, an AVX mnemonic
  std::string script = "uprobe:" + libc + ":__memset_avx2_unaligned { @ = count(); } BEGIN { exit(); }";
  cli_test::RunResult multi = cli_test::run_rawprobe({"-e", script});
  CHECK(multi.status == 1);
  CHECK(multi.err.find("bpf(BPF_LINK_CREATE): ENOTSUPP") != std::string::npos);
  CHECK(multi.err.find("cannot probe the instruction at one of the link's offsets") != std::string::npos);
  cli_test::RunResult pmu = cli_test::run_rawprobe({"--attach-mode=pmu", "-e", script});
  CHECK(pmu.status == 1);
  CHECK(pmu.err.find("perf_event_open: ENOTSUPP") != std::string::npos);
  CHECK(pmu.err.find("cannot be probed") != std::string::npos);
}

TEST_SUITE_END();
