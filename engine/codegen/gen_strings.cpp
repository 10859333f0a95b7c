// A string's bytes, bpftrace 0.26 on: `s[i]` (engine/lang/semantic_strings.cpp checks it).
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
