// uprobe args->NAME on blocks over several functions (a wildcard, or a list of attach points)
// against bpftrace 0.17: samples/dwarf_wildcard.c is built here with gcc -g, both tools
// attach to it and print the parameters, and both refuse the blocks whose functions'
// parameter names differ ("Probe has attach points with mixed arguments", at the attach
// point that brings the difference) with the same first error.
#include <doctest/doctest.h>

#include "tests/kernel/dwarf_sample.h"
#include "tests/kernel/oracle_compare.h"

using namespace rawprobe::cli_test;

TEST_SUITE_BEGIN("host-only");

TEST_CASE("uprobe args->NAME on a wildcard and on a list of functions reads each call, as bpftrace 0.17") {
  DwarfSample b("dwarf_wildcard");
  std::string at = "uprobe:" + b.with_dwarf + ":";
  std::string body = " { printf(\"%s %d %d\\n\", probe, args->a, args->b); @[probe] = sum(args->b); @n = count(); }";
  std::vector<std::string> flags{"-c", b.with_dwarf + " 3"};
  check_against_bpftrace({
      {flags, at + "pair_*" + body},
      {flags, at + "pair_first," + at + "pair_wide" + body},
      {flags, at + "pair_s*," + at + "pair_f*" + body},
  });
  // Every call was seen: 3 rounds of the 3 pair_* functions.
  RunResult r = run_rawprobe({"-c", b.with_dwarf + " 3", "-e", at + "pair_*" + body});
  CHECK(lines_starting(r.out, at + "pair_").size() == 9);
  CHECK(r.out.find("@n: 9\n") != std::string::npos);
}

TEST_CASE("uprobe args->NAME over functions with other parameter names is refused, as bpftrace 0.17") {
  DwarfSample b("dwarf_wildcard");
  std::string at = "uprobe:" + b.with_dwarf + ":";
  std::string body = " { printf(\"%d\\n\", args->a); }";
  check_against_bpftrace({
      {{}, at + "other_*" + body},
      {{}, at + "pair_*," + at + "other_renamed" + body},
      {{}, at + "other_more," + at + "pair_first" + body},
      {{}, at + "pair_first," + at + "_start" + body},
      {{}, at + "*" + body},
      {{}, at + "pair_* { printf(\"%d\\n\", args->nosuch_parameter); }"},
      {{}, at + "nothing_matches* { printf(\"%d\\n\", args->a); }"},
  });
}

TEST_CASE("uprobe args->NAME on a wildcard over a binary without DWARF: bpftrace 0.17's words") {
  DwarfSample b("dwarf_wildcard");
  std::string script = "uprobe:" + b.without_dwarf + ":pair_* { printf(\"%d\\n\", args->a); }";
  RunResult bt = run({"bpftrace", "-e", script});
  RunResult rp = run_rawprobe({"-e", script});
  std::string words = "No debuginfo found for " + b.without_dwarf;
  CHECK(bt.status != 0);
  CHECK(bt.err.find(words) != std::string::npos);  // a warning there, then no program
  CHECK(rp.status == 1);
  CHECK(first_error(rp.err).rfind("1:1: " + words, 0) == 0);
  CHECK(rp.err.find("-g") != std::string::npos);  // what to do instead
}
