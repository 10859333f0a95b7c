// A verifier rejection as the CLI reports it (engine/driver/verifier_report.h), on a real
// rejection by this kernel: a program that reads an uninitialised register at a known
// instruction. The report must name the probe, keep the log's error line, drop the trailing
// statistics, and show the very instruction the log points at with its source annotation.
#include <doctest/doctest.h>

#include <linux/bpf.h>

#include "bpfasm/builder.h"
#include "bpfasm/print.h"
#include "engine/driver/verifier_report.h"
#include "engine/sys/bpf_prog.h"

using namespace rawprobe;

// These cases need what only the build host has (the dynamic build/rawprobe, the source
// tree's samples/*.bt, bpftrace or bpftool), so the VM guest leaves the suite "host-only"
// out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("verifier rejection: probe, last log lines, and the instruction with its source line") {
  using namespace rawprobe::bpf;
  Builder b;
  b.annotate("x.bt:1: @a = 1");
  b.mov(R0, 1);
  b.ld_imm64(R1, 0x1122334455667788ull);  // two slots: slot numbers and indices differ after it
  b.annotate("x.bt:2: @b = $never_set");
  b.mov(R0, R3);                          // r3 was never written: rejected here
  b.exit();
  Result<Program> program = b.finish();
  REQUIRE(program);
  std::vector<Insn> slots = program->slots();
  sys::ProgSpec spec;
  spec.type = BPF_PROG_TYPE_KPROBE;
  spec.insns = slots;
  spec.name = "cli_verifier";
  Result<sys::Fd> fd = sys::prog_load(spec);
  REQUIRE(!fd);
  const Error& err = fd.error();
  REQUIRE(!err.detail.empty());

  // The log's own account of where it stopped, as the oracle for what the report shows.
  std::optional<size_t> slot = driver::rejected_slot(err.detail);
  REQUIRE(slot);
  const size_t mov_slot = program->insns[0].width() + program->insns[1].width();
  CHECK(*slot == mov_slot);  // mov r0, r3, after the two slots of the 64-bit load
  // As the driver prints it: message() and the line end report() adds.
  std::string report = driver::verifier_report(err, "uprobe:/tmp/fun:foo (x.bt:2)", *program).message() + "\n";
  INFO(report);
  CHECK(report.find("uprobe:/tmp/fun:foo (x.bt:2)") != std::string::npos);
  CHECK(report.find("R3 !read_ok") != std::string::npos);
  CHECK(report.find("processed ") == std::string::npos);
  ListingOptions listing;
  std::string expected = "  ; x.bt:2: @b = $never_set\n  " + listing_prefix(mov_slot, program->insns[2].code, listing) +
                         print(program->insns[2]) + "\n";
  CHECK(report.find("the instruction it points at:\n" + expected) != std::string::npos);
}

TEST_CASE("verifier report helpers on the edges of a log") {
  CHECK(!driver::rejected_slot("no instructions here\n").has_value());
  CHECK(driver::relevant_log_tail("a\nb\nprocessed 3 insns (limit 1000000)\n") == "  a\n  b\n");
  bpf::Program empty;
  CHECK(driver::instruction_at_slot(empty, 0).empty());
}

TEST_SUITE_END();
