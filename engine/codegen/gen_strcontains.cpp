// strcontains(haystack, needle): 1 when needle occurs in haystack, else 0, as bpftrace 0.17;
// strstr(haystack, needle): where it first occurs, or -1 (bpftrace 0.26). One search serves
// both. Both strings are on the stack; every start position i of the haystack is tried in turn,
// unrolled (no loop for the verifier to walk), each comparing needle[j] with haystack[i + j]
// until the needle's NUL (a match) or a difference (the next i). A literal needle compares
// with immediates and stops at its own end:
//   strcontains($s, "lo"), i = 3:   if s[3] != 'l' goto next4; if s[4] != 'o' goto next4; goto found
// The haystack's NUL at i ends the search (nothing after it matches).
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using bpf::Size;
using lang::Expr;
using lang::ExprKind;

IntVal ProgramGen::strcontains_int(const Expr& e) {
  return jumped_value([&](bpf::Label found) {
    string_search(*e.operands[0], *e.operands[1], [&](uint32_t) { return found; });
  });
}

// The index where needle first occurs: each position that matches jumps to its own stub,
//   found_3: r = 3; goto done
// emitted after the search, and falling through the search is r = -1.
IntVal ProgramGen::strstr_int(const Expr& e) {
  Temp t = regs_.take();
  Reg r = target_reg(t, bpf::R3);  // the search itself uses r1 and r2
  std::map<uint32_t, bpf::Label> stubs;
  string_search(*e.operands[0], *e.operands[1], [&](uint32_t i) {
    auto it = stubs.find(i);
    if (it == stubs.end()) it = stubs.emplace(i, b_.new_label("strstr_at")).first;
    return it->second;
  });
  bpf::Label done = b_.new_label("strstr_end");
  b_.mov(r, -1);
  b_.jump(done);
  for (const auto& [i, label] : stubs) {
    b_.bind(label);
    b_.mov(r, static_cast<int32_t>(i));
    b_.jump(done);
  }
  b_.bind(done);
  set(t, r);
  return IntVal::in_temp(t);
}

void ProgramGen::string_search(const Expr& hay, const Expr& needle,
                               const std::function<bpf::Label(uint32_t)>& found_at) {
  Place h = materialize(hay);
  bool literal = needle.kind == ExprKind::String;
  // A literal's bytes up to its NUL; a runtime needle's whole slot, NUL checked per byte.
  uint32_t m = literal ? static_cast<uint32_t>(needle.str.size()) : needle.type.size;
  Place n = literal ? Place{} : materialize(needle);
  if (literal && m == 0) {
    b_.jump(found_at(0));
    return;
  }
  if (!literal) {  // an empty needle matches at once
    b_.load(Size::B, bpf::R2, bpf::R10, static_cast<int16_t>(n.off));
    b_.jump(bpf::Cond::Eq, bpf::R2, 0, found_at(0));
  }
  uint32_t size = hay.type.size;
  bpf::Label not_found = b_.new_label("strsearch_none");
  for (uint32_t i = 0; i < size; ++i) {
    bpf::Label next = b_.new_label("strsearch_next");
    b_.load(Size::B, bpf::R1, bpf::R10, static_cast<int16_t>(h.off + static_cast<int32_t>(i)));
    b_.jump(bpf::Cond::Eq, bpf::R1, 0, not_found);
    for (uint32_t j = 0; j < m; ++j) {
      if (i + j >= size) {
        // Past the haystack's slot: only a needle ending here matches.
        if (!literal) {
          b_.load(Size::B, bpf::R2, bpf::R10, static_cast<int16_t>(n.off + static_cast<int32_t>(j)));
          b_.jump(bpf::Cond::Eq, bpf::R2, 0, found_at(i));
        }
        b_.jump(next);
        break;
      }
      if (j) b_.load(Size::B, bpf::R1, bpf::R10, static_cast<int16_t>(h.off + static_cast<int32_t>(i + j)));
      if (literal) {
        b_.jump(bpf::Cond::Ne, bpf::R1, static_cast<int32_t>(static_cast<uint8_t>(needle.str[j])), next);
      } else {
        b_.load(Size::B, bpf::R2, bpf::R10, static_cast<int16_t>(n.off + static_cast<int32_t>(j)));
        if (j) b_.jump(bpf::Cond::Eq, bpf::R2, 0, found_at(i));
        b_.jump(bpf::Cond::Ne, bpf::R1, bpf::R2, next);
      }
    }
    b_.jump(found_at(i));
    b_.bind(next);
  }
  b_.bind(not_found);
}

}  // namespace rawprobe::codegen
