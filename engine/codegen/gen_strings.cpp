// A string's bytes, bpftrace 0.26 on: `s[i]`, memcmp() and strlen() (checked in
// engine/lang/semantic_strings.cpp).
// The string is put on the stack (a variable already is) and its byte read from there:
//   literal i:   r1 = *(u8 *)(r10 - 64 + i)
//   runtime i:   r1 = 0; if r2 >= N goto done; r1 = r10; r1 += -64; r1 += r2; r1 = *(u8 *)(r1 +0)
// The unsigned bound both keeps the read inside the string's N bytes for the verifier (a
// variable stack offset must be bounded) and gives an index past the end the NUL padding's 0.
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using lang::Expr;

IntVal ProgramGen::string_byte_int(const Expr& e) {
  const Expr& text = *e.operands[0];
  Place at = materialize(text);
  IntVal idx = gen_int(*e.operands[1]);
  pin(idx);
  Temp t = regs_.take();
  Reg r = target_reg(t, bpf::R1);
  if (idx.is_imm) {
    b_.load(bpf::Size::B, r, bpf::R10, static_cast<int16_t>(at.off + static_cast<int32_t>(idx.imm)));
  } else {
    Reg ri = use(idx, bpf::R2);
    bpf::Label done = b_.new_label("strbyte_end");
    b_.mov(r, 0);
    b_.jump(bpf::Cond::Ge, ri, static_cast<int32_t>(text.type.size), done);
    b_.mov(r, bpf::R10);
    b_.alu(bpf::Op::Add, r, at.off);
    b_.alu(bpf::Op::Add, r, ri);
    b_.load(bpf::Size::B, r, r, 0);
    b_.bind(done);
  }
  release(idx);
  extend(r, 1, true);
  set(t, r);
  return IntVal::in_temp(t);
}

}  // namespace rawprobe::codegen

namespace rawprobe::codegen {

// memcmp(a, b, count) (engine/lang/semantic_strings.cpp): both sides on the stack, compared
// byte by byte, unrolled over the bytes both hold; a runtime count stops the walk early:
//   r3 = 0; if r4 <= 2 goto done; r1 = a[2]; r2 = b[2]; if r1 != r2 goto differ; ...
//   differ: r3 = r1 - r2
IntVal ProgramGen::memcmp_int(const Expr& e) {
  const Expr& count = *e.operands[2];
  Place a = materialize(*e.operands[0]);
  Place b = materialize(*e.operands[1]);
  uint32_t n = std::min(e.operands[0]->type.size, e.operands[1]->type.size);
  IntVal c = gen_int(count);
  pin(c);
  if (c.is_imm) n = std::min<uint32_t>(n, static_cast<uint32_t>(c.imm));
  Temp t = regs_.take();
  Reg r = target_reg(t, bpf::R3);
  Reg rc = c.is_imm ? bpf::R4 : use(c, bpf::R4);
  bpf::Label differ = b_.new_label("memcmp_differ"), done = b_.new_label("memcmp_end");
  b_.mov(r, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (!c.is_imm) b_.jump(bpf::Cond::Le, rc, static_cast<int32_t>(i), done);
    b_.load(bpf::Size::B, bpf::R1, bpf::R10, static_cast<int16_t>(a.off + static_cast<int32_t>(i)));
    b_.load(bpf::Size::B, bpf::R2, bpf::R10, static_cast<int16_t>(b.off + static_cast<int32_t>(i)));
    b_.jump(bpf::Cond::Ne, bpf::R1, bpf::R2, differ);
  }
  b_.jump(done);
  b_.bind(differ);
  b_.mov(r, bpf::R1);
  b_.alu(bpf::Op::Sub, r, bpf::R2);
  b_.bind(done);
  release(c);
  set(t, r);
  return IntVal::in_temp(t);
}

}  // namespace rawprobe::codegen

namespace rawprobe::codegen {

// strlen(s) (bpftrace 0.26, uint64): the bytes before the first NUL, at most the capacity N:
//   r3 = 0; r1 = s[0]; if r1 == 0 goto done; r3 = 1; r1 = s[1]; ... r3 = N; done:
IntVal ProgramGen::strlen_int(const Expr& e) {
  const Expr& text = *e.operands[0];
  Place at = materialize(text);
  Temp t = regs_.take();
  Reg r = target_reg(t, bpf::R3);
  bpf::Label done = b_.new_label("strlen_end");
  for (uint32_t i = 0; i < text.type.size; ++i) {
    b_.mov(r, static_cast<int32_t>(i));
    b_.load(bpf::Size::B, bpf::R1, bpf::R10, static_cast<int16_t>(at.off + static_cast<int32_t>(i)));
    b_.jump(bpf::Cond::Eq, bpf::R1, 0, done);
  }
  b_.mov(r, static_cast<int32_t>(text.type.size));
  b_.bind(done);
  set(t, r);
  return IntVal::in_temp(t);
}

}  // namespace rawprobe::codegen
