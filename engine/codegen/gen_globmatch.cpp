// globmatch(str, pattern) for a literal pattern, as straight-line code with no loop for the
// verifier to bound. The pattern's tokens (engine/lang/glob_pattern.h) are run as a
// bit-parallel automaton over the string's bytes: bit p of a 64-bit state word says "the first
// p tokens match what has been read", bit k (k tokens) "the whole pattern does". Each byte c
// of the string's slot, unrolled:
//   if c == 0 goto end                        the string ended
//   new  = old & STARS                        a `*` takes c and stays where it is
//   old <<= 1
//   new |= old & ANYS                         every `?` takes c
//   new |= (in_set_p(c) << p+1) & old         every other token p, each range of its set
//   new |= (new & STARS) << 1                 a `*` may also match nothing
//   if new == 0 goto no                       nothing can match any more
// and at the end the answer is bit k. in_set(c) is computed without a branch, as 0 or 1, so
// the verifier walks one path a byte; a range lo..hi, with d = c - lo (64-bit):
//   bit 63 of ((d - (hi - lo + 1)) & ~d)      d below the range's width and not negative
// A negated set is turned into the ranges of the bytes it leaves out. A string that fills its
// slot (truncated by max_strlen) is matched as it stands, as bpftrace 0.26.1 matches the
// string it has.
#include "engine/codegen/gen.h"
#include "engine/lang/glob_pattern.h"

namespace rawprobe::codegen {

using bpf::Op;
using bpf::Reg;
using bpf::Size;
using lang::Expr;

namespace {

using Ranges = std::vector<std::pair<uint8_t, uint8_t>>;

// The bytes 1..255 a token accepts, as sorted, disjoint ranges (NUL ends the string first).
Ranges accepted(const lang::GlobToken& t) {
  std::vector<bool> in(256, false);
  for (auto [lo, hi] : t.ranges)
    for (int c = lo; c <= hi; ++c) in[c] = true;
  Ranges out;
  for (int c = 1; c < 256; ++c) {
    if (in[c] == t.negated) continue;
    if (!out.empty() && out.back().second == c - 1)
      out.back().second = static_cast<uint8_t>(c);
    else
      out.emplace_back(static_cast<uint8_t>(c), static_cast<uint8_t>(c));
  }
  return out;
}

}  // namespace

IntVal ProgramGen::globmatch_int(const Expr& e) {
  const Expr& str = *e.operands[0];
  std::vector<lang::GlobToken> tokens = lang::parse_glob(e.operands[1]->str).tokens;
  const int k = static_cast<int>(tokens.size());
  uint64_t stars = 0;
  for (int p = 0; p < k; ++p)
    if (tokens[p].star) stars |= uint64_t{1} << p;
  uint64_t start = 1;
  if (k && tokens[0].star) start |= 2;
  // `?` tokens accept every byte: one mask serves them all. The other tokens test their ranges.
  // Token p can take byte i only when i is at least the number of single-byte tokens before
  // it, and only then when no `*` comes before it: the test is left out where it cannot hold,
  // so a literal prefix costs one test, not one a byte.
  uint64_t any = 0;
  std::vector<Ranges> sets(k);
  std::vector<uint32_t> first_byte(k);
  std::vector<bool> after_star(k);
  uint32_t singles = 0;
  bool star_seen = false;
  for (int p = 0; p < k; ++p) {
    first_byte[p] = singles;
    after_star[p] = star_seen;
    star_seen = star_seen || tokens[p].star;
    if (tokens[p].star) continue;
    ++singles;
    sets[p] = accepted(tokens[p]);
    if (sets[p].size() == 1 && sets[p][0] == std::pair<uint8_t, uint8_t>(1, 255)) {
      any |= uint64_t{1} << p;
      sets[p].clear();
    }
  }

  return jumped_value([&](bpf::Label found) {
    Place s = materialize(str);
    Reg base = place_base(s, bpf::R5);
    const Reg c = bpf::R1, old_state = bpf::R2, next = bpf::R3, in = bpf::R4, tmp = bpf::R0;
    bpf::Label end = b_.new_label("glob_end");
    bpf::Label no = b_.new_label("glob_no");
    b_.ld_imm64(old_state, start);
    for (uint32_t i = 0; i < str.type.size; ++i) {
      b_.load(Size::B, c, base, static_cast<int16_t>(s.off + static_cast<int32_t>(i)));
      b_.jump(bpf::Cond::Eq, c, 0, end);
      if (stars) {
        b_.ld_imm64(next, stars);
        b_.alu(Op::And, next, old_state);
      } else {
        b_.mov(next, 0);
      }
      b_.alu(Op::Lsh, old_state, 1);  // from here on: bit p+1 is "the first p tokens matched"
      if (any) {
        b_.ld_imm64(tmp, any << 1);
        b_.alu(Op::And, tmp, old_state);
        b_.alu(Op::Or, next, tmp);
      }
      for (int p = 0; p < k; ++p) {
        if (i < first_byte[p] || (i > first_byte[p] && !after_star[p])) continue;
        for (auto [lo, hi] : sets[p]) {
          if (lo == hi) {  // (c ^ lo) - 1 is negative only for c == lo
            b_.mov(in, c);
            b_.alu(Op::Xor, in, lo);
            b_.alu(Op::Sub, in, 1);
            b_.alu(Op::Rsh, in, 63);
          } else {
            b_.mov(tmp, c);
            b_.alu(Op::Sub, tmp, lo);
            b_.mov(in, tmp);
            b_.alu(Op::Sub, in, hi - lo + 1);
            b_.alu(Op::Xor, tmp, -1);
            b_.alu(Op::And, in, tmp);
            b_.alu(Op::Rsh, in, 63);
          }
          b_.alu(Op::Lsh, in, p + 1);
          b_.alu(Op::And, in, old_state);
          b_.alu(Op::Or, next, in);
        }
      }
      if (stars) {  // runs of `*` are one token, so one step reaches past every `*`
        b_.ld_imm64(tmp, stars);
        b_.alu(Op::And, tmp, next);
        b_.alu(Op::Lsh, tmp, 1);
        b_.alu(Op::Or, next, tmp);
      }
      b_.jump(bpf::Cond::Eq, next, 0, no);
      b_.mov(old_state, next);
    }
    b_.bind(end);
    if (k) b_.alu(Op::Rsh, old_state, k);
    b_.alu(Op::And, old_state, 1);
    b_.jump(bpf::Cond::Ne, old_state, 0, found);
    b_.bind(no);
  });
}

}  // namespace rawprobe::codegen
