// Builder: labels and map handles resolved at finish, and its errors.
#include <doctest/doctest.h>

#include "bpfasm/builder.h"
#include "bpfasm/decode.h"
#include "bpfasm/parse.h"
#include "bpfasm/print.h"

using namespace rawprobe;
using namespace rawprobe::bpf;

namespace {

// A Builder whose program is: jump to `target` then `gap` instructions, then the label.
Result<Program> jump_over(size_t gap, bool long_jump) {
  Builder b;
  Label end = b.new_label("end");
  if (long_jump) b.jump_long(end); else b.jump(end);
  for (size_t i = 0; i < gap; ++i) b.mov(R0, 0);
  b.bind(end);
  b.exit();
  return b.finish();
}

}  // namespace

TEST_CASE("forward and backward jumps land on their labels") {
  Builder b;
  Label top = b.new_label("top"), out = b.new_label("out");
  b.bind(top);
  b.ld_imm64(R1, 7);                // two slots: distances count slots
  b.jump(Cond::Eq, R1, 0, out);
  b.alu(Op::Sub, R1, 1);
  b.jump(Cond::Ne, R1, R2, top);
  b.bind(out);
  b.exit();
  Result<Program> p = b.finish();
  REQUIRE_MESSAGE(p.ok(), p.error().message());
  // Slot indexes of each instruction, from the program itself.
  std::vector<size_t> slot{0};
  for (const Instruction& insn : p->insns) slot.push_back(slot.back() + insn.width());
  auto lands = [&](size_t i) { return static_cast<int64_t>(slot[i] + 1) + p->insns[i].off; };
  CHECK(lands(1) == static_cast<int64_t>(slot[4]));  // out
  CHECK(lands(3) == static_cast<int64_t>(slot[0]));  // top
  // And the text form reads back to the same program.
  Result<Program> again = assemble(print(*p));
  REQUIRE(again.ok());
  CHECK(again->insns == p->insns);
}

TEST_CASE("jump range: int16 for ordinary jumps, int32 for gotol") {
  Result<Program> fits = jump_over(INT16_MAX, false);
  REQUIRE_MESSAGE(fits.ok(), fits.error().message());
  CHECK(fits->insns[0].off == INT16_MAX);
  Result<Program> too_far = jump_over(INT16_MAX + 1, false);
  REQUIRE_FALSE(too_far.ok());
  CHECK(too_far.error().what.find("beyond the 16-bit offset range") != std::string::npos);
  CHECK(too_far.error().what.find("'end'") != std::string::npos);
  CHECK(too_far.error().hint.find("gotol") != std::string::npos);
  Result<Program> long_jump = jump_over(INT16_MAX + 1, true);
  REQUIRE_MESSAGE(long_jump.ok(), long_jump.error().message());
  CHECK(long_jump->insns[0].imm == INT16_MAX + 1);
}

TEST_CASE("undefined and doubly defined labels are errors at finish") {
  Builder b;
  Label nowhere = b.new_label("nowhere");
  b.jump(nowhere);
  b.exit();
  Result<Program> p = b.finish();
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().what == "undefined label 'nowhere'");
  CHECK(p.error().object == "instruction 0");

  Builder twice;
  Label l = twice.new_label("again");
  twice.bind(l, "first place");
  twice.exit();
  twice.bind(l, "second place");
  twice.exit();
  Result<Program> q = twice.finish();
  REQUIRE_FALSE(q.ok());
  CHECK(q.error().what == "label 'again' defined twice");
  CHECK(q.error().object == "second place");
  CHECK(q.error().hint.find("first place") != std::string::npos);
}

TEST_CASE("map handles resolve to the fds given at finish") {
  Builder b;
  b.load_map_fd(R1, MapHandle{1});
  b.load_map_value(R2, MapHandle{0}, 16);
  b.exit();
  const int fds[] = {41, 42};
  Result<Program> p = b.finish(fds);
  REQUIRE_MESSAGE(p.ok(), p.error().message());
  CHECK(p->insns[0].src == op::PSEUDO_MAP_FD);
  CHECK(p->insns[0].imm_lo() == fds[1]);
  CHECK(p->insns[1].src == op::PSEUDO_MAP_VALUE);
  CHECK(p->insns[1].imm_lo() == fds[0]);
  CHECK(p->insns[1].imm_hi() == 16);

  Result<Program> missing = b.finish(std::span(fds, 1));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().what == "map handle 1 has no fd");
}

TEST_CASE("an instruction no table row accepts is an error at finish") {
  Builder b;
  b.bswap(R1, 8);  // bswap takes 16, 32 or 64
  b.exit();
  Result<Program> p = b.finish();
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().what.find("invalid instruction") == 0);
  CHECK(p.error().object == "instruction 0");
}

TEST_CASE("every Builder method makes an instruction of the table") {
  Builder b;
  Label fn = b.new_label("fn");
  b.mov(R1, -1); b.mov(R2, R1); b.mov32(R3, 5); b.mov32(R3, R2);
  for (Op o : {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Or, Op::And, Op::Lsh, Op::Rsh, Op::Mod,
               Op::Xor, Op::Mov, Op::Arsh, Op::SDiv, Op::SMod}) {
    b.alu(o, R1, 3); b.alu(o, R1, R2); b.alu32(o, R1, 3); b.alu32(o, R1, R2);
  }
  b.neg(R1); b.neg32(R1);
  for (int bits : {8, 16, 32}) b.movsx(R1, R2, bits);
  for (int bits : {8, 16}) b.movsx32(R1, R2, bits);
  for (int bits : {16, 32, 64}) { b.to_le(R1, bits); b.to_be(R1, bits); b.bswap(R1, bits); }
  for (Size s : {Size::B, Size::H, Size::W, Size::DW}) {
    b.load(s, R1, R10, -8); b.store(s, R10, -8, R1); b.store_imm(s, R10, -8, 7);
    if (s != Size::DW) b.load_sx(s, R1, R10, -8);
  }
  for (Size s : {Size::W, Size::DW})
    for (Atomic a : {Atomic::Add, Atomic::Or, Atomic::And, Atomic::Xor, Atomic::FetchAdd,
                     Atomic::FetchOr, Atomic::FetchAnd, Atomic::FetchXor, Atomic::Xchg,
                     Atomic::CmpXchg})
      b.atomic(a, s, R1, 0, R2);
  for (Cond c : {Cond::Eq, Cond::Gt, Cond::Ge, Cond::Set, Cond::Ne, Cond::SGt, Cond::SGe,
                 Cond::Lt, Cond::Le, Cond::SLt, Cond::SLe}) {
    b.jump(c, R1, 1, fn); b.jump(c, R1, R2, fn); b.jump32(c, R1, 1, fn); b.jump32(c, R1, R2, fn);
  }
  b.jump(fn); b.jump_long(fn);
  b.call(Helper::map_lookup_elem); b.call(fn); b.call_kfunc(1234, 2);
  b.load_func(R1, fn); b.ld_imm64(R1, ~0ull);
  b.exit();
  b.bind(fn);
  b.exit();
  Result<Program> p = b.finish();
  REQUIRE_MESSAGE(p.ok(), p.error().message());
  // Decoding the slots gives the same instructions back.
  auto decoded = decode(p->slots());
  REQUIRE(decoded.ok());
  CHECK(*decoded == p->insns);
}

TEST_CASE("annotations print before the instructions they describe") {
  Builder b;
  b.annotate("t.bt:1: BEGIN { exit(); }");
  b.mov(R0, 0);
  b.annotate("t.bt:2: return");
  b.exit();
  Result<Program> p = b.finish();
  REQUIRE(p.ok());
  std::string listing = print(*p);
  ListingOptions bare;
  bare.annotations = false;
  std::string plain = print(*p, bare);
  // Line by line: each annotation line sits right before its instruction's line.
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = listing.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(listing.substr(at, nl - at));
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == "; " + p->annotations[0].text);
  CHECK(lines[2] == "; " + p->annotations[1].text);
  CHECK(lines[1] + "\n" + lines[3] + "\n" == plain);
  // The assembler keeps them.
  Result<Program> again = assemble(listing);
  REQUIRE(again.ok());
  CHECK(again->annotations == p->annotations);
}
