// uprobe args->NAME from DWARF against bpftrace 0.17, the oracle: samples/dwarf_args.c is
// built here with gcc -g (and once without -g), and both tools list its parameters with -lv,
// read them in a run, and refuse the same mistakes with the same first words.
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/dwarf_sample.h"
#include "tests/kernel/oracle_first_error.h"

using namespace rawprobe::cli_test;

namespace {

struct Built : DwarfSample {
  Built() : DwarfSample("dwarf_args") {}
};

// Probe line -> the indented lines under it that bpftrace prints: the parameters. rawprobe
// prints its own details after them, from "    address ..." on, which are left out.
std::map<std::string, std::vector<std::string>> params_by_probe(const std::string& listing) {
  std::map<std::string, std::vector<std::string>> out;
  std::istringstream in(listing);
  std::string line, probe;
  bool in_params = false;
  while (std::getline(in, line)) {
    if (line.rfind("uprobe:", 0) == 0) {
      probe = line;
      out[probe];
      in_params = true;
    } else if (line.rfind("    address ", 0) == 0) {
      in_params = false;
    } else if (in_params && line.rfind("    ", 0) == 0) {
      out[probe].push_back(line);
    }
  }
  return out;
}

std::string last_word(const std::string& s) { return s.substr(s.rfind(' ') + 1); }

std::string without_total(std::string text) {
  size_t at = text.find("total ");
  if (at != std::string::npos) text.erase(at, text.find('\n', at) + 1 - at);
  return text;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("-lv on a uprobe lists each function's parameters as bpftrace 0.17 does") {
  Built b;
  std::string pattern = "uprobe:" + b.with_dwarf + ":*";
  RunResult bt = run({"bpftrace", "-lv", pattern});
  RunResult rp = run_rawprobe({"-lv", pattern});
  REQUIRE(bt.status == 0);
  CHECK(rp.status == 0);
  auto theirs = params_by_probe(bt.out), ours = params_by_probe(rp.out);
  REQUIRE(theirs.count("uprobe:" + b.with_dwarf + ":widths"));
  CHECK(theirs["uprobe:" + b.with_dwarf + ":widths"].size() == 6);
  size_t compared = 0;
  for (const auto& [probe, params] : theirs) {
    INFO(probe);
    REQUIRE(ours.count(probe));
    REQUIRE(ours[probe].size() == params.size());
    for (size_t i = 0; i < params.size(); ++i, ++compared) {
      // bpftrace 0.17 cannot spell a function pointer or a volatile type; rawprobe does, so
      // there only the name is compared.
      if (params[i].find("<unknown type>") != std::string::npos)
        CHECK(last_word(ours[probe][i]) == last_word(params[i]));
      else
        CHECK(ours[probe][i] == params[i]);
    }
  }
  CHECK(compared >= 15);
}

TEST_CASE("a binary without DWARF: bpftrace 0.17's -lv warning, and its error for args") {
  Built b;
  RunResult bt = run({"bpftrace", "-lv", "uprobe:" + b.without_dwarf + ":widths"});
  RunResult rp = run_rawprobe({"-lv", "uprobe:" + b.without_dwarf + ":widths"});
  std::string warning = "WARNING: No DWARF found for \"" + b.without_dwarf + "\", cannot show parameter info";
  CHECK(bt.err.find(warning) != std::string::npos);
  CHECK(rp.err.find(warning) != std::string::npos);
  CHECK(rp.status == 0);
  CHECK(rp.out.rfind("uprobe:" + b.without_dwarf + ":widths\n    address ", 0) == 0);

  std::string script = "uprobe:" + b.without_dwarf + ":widths { printf(\"%d\", args->s8); }";
  RunResult bt_run = run({"bpftrace", "-e", script});
  RunResult rp_run = run_rawprobe({"--dry-run", "-e", script});
  std::string expected = first_error(bt_run.err);
  CHECK(expected == "1:1: No debuginfo found for " + b.without_dwarf);
  CHECK(rp_run.status != 0);
  CHECK(first_error(rp_run.err).rfind(expected, 0) == 0);
  CHECK(rp_run.err.find("-g") != std::string::npos);  // what to do instead
}

TEST_CASE("uprobe args->NAME reads integers of every width and pointers as bpftrace 0.17 does") {
  Built b;
  std::string bin = b.with_dwarf;
  std::string script =
      "uprobe:" + bin + ":widths { printf(\"%d %d %d %d %d %d\\n\", args->s8, args->s16, args->s32, args->s64, "
      "args->u8, args->u16); @w[args->s64, args->u16] = count(); }"
      " uprobe:" + bin + ":pointers { printf(\"%s %d %d %d %u\\n\", str(args->name), args->p->x, args->p->y, "
      "args->c, args->n); @n = sum(args->n); $p = args->p; @x = sum($p->x); }";
  // Map keys here are 64-bit or unsigned: bpftrace 0.17 prints a negative key of a narrower
  // DWARF parameter zero-extended from 32 bits (-16 as 4294967280), where rawprobe prints -16
  // as bpftrace does for the same value cast with (int16).
  RunResult bt = run({"bpftrace", "-c", bin + " 3", "-e", script});
  RunResult rp = run_rawprobe({"-c", bin + " 3", "-e", script});
  INFO("bpftrace:\n", bt.out, bt.err, "\nrawprobe:\n", rp.out, rp.err);
  REQUIRE(bt.status == 0);
  CHECK(rp.status == 0);
  CHECK(lines_starting(rp.out, "dwarf ").size() == 3);
  CHECK(without_total(rp.out) == without_total(bt.out));
}

TEST_CASE("uprobe args mistakes: bpftrace 0.17's first words and place") {
  Built b;
  std::string bin = b.with_dwarf;
  for (std::string script : {
           "uprobe:" + bin + ":widths { printf(\"%d\", args->nosuch); }",
           "uprobe:" + bin + ":widths,uprobe:" + bin + ":pointers { printf(\"%d\", args->s8); }",
           "uprobe:" + bin + ":registers_cannot_hold { printf(\"%d\", args->d); }",
           "uretprobe:" + bin + ":widths { printf(\"%d\", args->s8); }",
       }) {
    INFO(script);
    RunResult bt = run({"bpftrace", "-e", script});
    RunResult rp = run_rawprobe({"--dry-run", "-e", script});
    CHECK(bt.status != 0);
    CHECK(rp.status != 0);
    std::string theirs = first_error(bt.err), ours = first_error(rp.err);
    // rawprobe's message may say more after bpftrace's words (a suggestion, what to do).
    std::string head = theirs.substr(0, theirs.find(" tracepoint/kfunc/uprobeprobes"));
    CHECK(ours.rfind(head, 0) == 0);
  }
}

TEST_SUITE_END();
