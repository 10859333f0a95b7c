// bpfasm's text forms: instructions print exactly as the kernel verifier's log lines show them,
// and LLVM's spellings, labels and verifier-log prefixes read as the same instructions.
#include <doctest/doctest.h>

#include "bpfasm/parse.h"
#include "bpfasm/print.h"

using namespace rawprobe::bpf;

namespace {

Instruction parsed(const std::string& text) {
  auto r = parse_instruction(text);
  REQUIRE_MESSAGE(r.ok(), text, "\n", r.error().message());
  return *r;
}

}  // namespace

TEST_CASE("verifier-syntax lines from the issue print back verbatim") {
  for (const char* line : {
           "r1 = *(u64 *)(r10 -8)", "*(u32 *)(r1 +4) = r2", "*(u8 *)(r10 -1) = 0",
           "if r1 > 0x5 goto pc+3", "if w1 s< w2 goto pc-2", "goto pc+1", "gotol pc+100",
           "call bpf_map_lookup_elem#1", "call pc+5", "call kernel-function#77",
           "lock *(u64 *)(r1 +0) += r2", "r0 = atomic64_fetch_add((u64 *)(r1 +0), r0)",
           "r0 = atomic64_cmpxchg((u64 *)(r1 +0), r0, r2)", "w0 = w1", "r1 = (s8)r2",
           "r0 = -r0", "r1 = be16 r1", "r1 = bswap64 r1", "r1 = 0x1234 ll", "r1 = map[fd:5]",
           "r0 = *(u32 *)skb[r1 + 4]", "exit"}) {
    CHECK(print(parsed(line)) == line);
  }
}

TEST_CASE("LLVM's spellings read as the verifier's") {
  const char* pairs[][2] = {
      {"r1 = *(u64 *)(r10 - 8)", "r1 = *(u64 *)(r10 -8)"},
      {"if r1 > 5 goto +3", "if r1 > 0x5 goto pc+3"},
      {"if r1 > 0x5 goto +3 <LBB0_2>", "if r1 > 0x5 goto pc+3"},
      {"goto -2", "goto pc-2"},
      {"r1 = 0x1 ll", "r1 = 0x1 ll"},
      {"r1 = 1 ll", "r1 = 0x1 ll"},
      {"call 1", "call bpf_map_lookup_elem#1"},
      {"call map_lookup_elem", "call bpf_map_lookup_elem#1"},
      {"lock *(u64 *)(r1 + 0) += r2", "lock *(u64 *)(r1 +0) += r2"},
      {"lock *(u32 *)(r1 + 0) += w2", "lock *(u32 *)(r1 +0) += r2"},
      {"w2 = atomic_fetch_add((u32 *)(r1 + 0), w2)", "r2 = atomic_fetch_add((u32 *)(r1 +0), r2)"},
      {"r0 = cmpxchg_64(r1 + 0, r0, r2)", "r0 = atomic64_cmpxchg((u64 *)(r1 +0), r0, r2)"},
      {"w1 = *(u32 *)(r10 - 8)", "r1 = *(u32 *)(r10 -8)"},
      {"r1 = 4294967295", "r1 = -1"},
      {"ld_pseudo r1, 1, 5", "r1 = map[fd:5]"},
      {"12: (79) r1 = *(u64 *)(r10 -8) ; R1_w=scalar()", "r1 = *(u64 *)(r10 -8)"},
      {"  3:\t79 a1 f8 ff 00 00 00 00\tr1 = *(u64 *)(r10 - 8)", "r1 = *(u64 *)(r10 -8)"},
  };
  for (auto& p : pairs) {
    CAPTURE(p[0]);
    CHECK(parsed(p[0]) == parsed(p[1]));
  }
}

TEST_CASE("labels: definitions, jumps, <label> targets and calls to functions") {
  const char* with_labels =
      "entry:\n"
      "  if r1 == 0 goto done\n"
      "  call helper_fn\n"
      "  goto <done>\n"
      "helper_fn: r0 = 1\n"
      "  exit\n"
      "done:\n"
      "  exit\n";
  // The same program with pc-relative distances (target - (index + 1), RFC 9669 4.4):
  // slots 0 if, 1 call, 2 goto, 3 helper_fn, 4 exit, 5 done.
  const char* with_numbers =
      "  if r1 == 0 goto +4\n"
      "  call pc+1\n"
      "  goto +2\n"
      "  r0 = 1\n"
      "  exit\n"
      "  exit\n";
  auto a = rawprobe::bpf::assemble(with_labels);
  REQUIRE_MESSAGE(a.ok(), a.error().message());
  auto b = rawprobe::bpf::assemble(with_numbers);
  REQUIRE(b.ok());
  CHECK(a->insns == b->insns);
  // The listing of the labelled program reads back to it.
  auto listed = rawprobe::bpf::assemble(print(*a));
  REQUIRE(listed.ok());
  CHECK(listed->insns == a->insns);
}
