// Assembly errors name file:line:col, show the line and put a caret under the column;
// undecodable bytes are named by instruction index and byte values.
#include <doctest/doctest.h>

#include <cstdio>

#include "bpfasm/decode.h"
#include "bpfasm/parse.h"

using namespace rawprobe;
using namespace rawprobe::bpf;

namespace {

// Assembles `text`, expecting an error at the first occurrence of `at` on line `line_no`
// (at the end of that line when `at` is empty).
void expect_error_at(const std::string& text, size_t line_no, const std::string& at,
                     const std::string& words) {
  CAPTURE(text);
  Result<Program> p = assemble(text, "t.s");
  REQUIRE_FALSE(p.ok());
  const Error& e = p.error();
  // The line and column the test computes from its own input.
  size_t begin = 0;
  for (size_t n = 1; n < line_no; ++n) begin = text.find('\n', begin) + 1;
  std::string line = text.substr(begin, text.find('\n', begin) - begin);
  size_t col = at.empty() ? line.size() : line.find(at);  // "" means the end of the line
  REQUIRE(col != std::string::npos);
  std::string where = "t.s:" + std::to_string(line_no) + ":" + std::to_string(col + 1) + ": ";
  CHECK_MESSAGE(e.what.find(where) == 0, e.message());
  CHECK_MESSAGE(e.what.find(words) != std::string::npos, e.message());
  CHECK(e.detail == "  " + line + "\n  " + std::string(col, ' ') + "^");
}

}  // namespace

TEST_CASE("assembly errors point at the offending column") {
  expect_error_at("  r0 = 0\n  r11 = 5\n  exit\n", 2, "r11", "register r11 does not exist");
  expect_error_at("  call bpf_no_such_helper\n", 1, "bpf_no_such_helper", "unknown helper");
  expect_error_at("  call bpf_map_lookup_elem#2\n", 1, "bpf_map_lookup_elem", "has id 1, not 2");
  expect_error_at("  goto nowhere\n  exit\n", 1, "nowhere", "undefined label 'nowhere'");
  expect_error_at("  r1 = *(u64 *)(r10 -8\n", 1, "", "expected ')'");
  expect_error_at("  r1 += 0x100000000\n", 1, "0x100000000", "out of range");
  expect_error_at("  r1 = *(u64 *)(r10 -40000)\n", 1, "-40000", "offset -40000 is out of range");
  expect_error_at("  if r1 >> 5 goto +1\n", 1, ">>", "expected one of");
  expect_error_at("  r1 = be16 r2\n", 1, "r2", "'r1' (the same register)");
  expect_error_at("  frobnicate r1\n", 1, "frobnicate", "found 'frobnicate'");
}

TEST_CASE("a label defined twice names the second definition") {
  std::string text = "again:\n  r0 = 0\nagain:\n  exit\n";
  Result<Program> p = assemble(text, "t.s");
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().what == "t.s:3:1: label 'again' defined twice");
  CHECK(p.error().detail == "  again:\n  ^");
  CHECK(p.error().hint.find("t.s:1:1") != std::string::npos);
}

TEST_CASE("undecodable slots are named by index and bytes") {
  Insn good{op::ALU64 | op::MOV | op::K, 0, 0, 0, 0};
  Insn bad{0x8f, 1, 0, 0, 0};
  std::vector<Insn> slots{good, good, bad, good};
  auto r = decode(slots);
  REQUIRE_FALSE(r.ok());
  // The bytes, as the test itself renders them.
  std::string hex;
  for (uint8_t b : to_bytes(std::span(&bad, 1))) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%s%02x", hex.empty() ? "" : " ", b);
    hex += buf;
  }
  CHECK(r.error().object == "instruction 2 (" + hex + ")");
  CHECK(r.error().detail == "unknown opcode 0x8f");

  // A known opcode with a field no form allows: the fields are named.
  Insn odd = good;
  odd.src_reg = 3;  // MOV K needs src 0
  std::vector<Insn> one{odd};
  auto o = decode(one);
  REQUIRE_FALSE(o.ok());
  CHECK(o.error().object.find("instruction 0 (") == 0);
  CHECK(o.error().detail.find("src=r3") != std::string::npos);

  // A register beyond r10.
  Insn r12 = good;
  r12.dst_reg = 12;
  auto reg = decode(std::vector<Insn>{r12});
  REQUIRE_FALSE(reg.ok());
  CHECK(reg.error().detail.find("r12") != std::string::npos);

  // LD_IMM64 cut short, or with a second slot that is not plain data.
  Insn wide{op::LD_IMM64, 1, 0, 0, 5};
  auto cut = decode(std::vector<Insn>{good, wide});
  REQUIRE_FALSE(cut.ok());
  CHECK(cut.error().object.find("instruction 1 (") == 0);
  CHECK(cut.error().detail.find("missing its second slot") != std::string::npos);
  Insn not_data{0x07, 0, 0, 0, 0};
  auto mixed = decode(std::vector<Insn>{wide, not_data});
  REQUIRE_FALSE(mixed.ok());
  CHECK(mixed.error().detail.find("second slot") != std::string::npos);

  // A byte count that is not whole instructions.
  std::vector<uint8_t> ragged(12, 0);
  auto raw = slots_from_bytes(ragged);
  REQUIRE_FALSE(raw.ok());
  CHECK(raw.error().hint.find("4 trailing bytes") != std::string::npos);
}
