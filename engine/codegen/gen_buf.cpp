// buf(p, n) and buf(string, n): { u8 length; u8 data[N] } (N from the type, which the
// semantic pass sized: engine/lang/semantic_buf.cpp).
//   length = min(n, N)   (a constant, or computed once with one compare)
//   data   = the string's first N bytes, or min(n, N) bytes read from p with the probe's read
//            helper (user probes: bpf_probe_read_user; others: the generic one, as str())
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Helper;
using bpf::Reg;
using bpf::Size;
using lang::Expr;
using lang::ExprKind;

void ProgramGen::buf_into(const Expr& e, uint32_t slot, Place dst) {
  const Expr& data = *e.operands[0];
  const Expr& length = *e.operands[1];
  uint32_t n = e.type.size - 1;
  zero(dst, slot);
  IntVal len = IntVal::constant(n);
  if (length.kind != ExprKind::Integer) {  // min(length, n), once
    len = gen_int(length);
    Temp t = own(len);
    Reg r = acquire(t, bpf::R1);
    bpf::Label fits = b_.new_label("buflen");
    b_.jump(bpf::Cond::Le, r, static_cast<int32_t>(n), fits);
    b_.mov(r, static_cast<int32_t>(n));
    b_.bind(fits);
    set(t, r);
  }
  if (data.kind == ExprKind::String) {
    write(data, Type::string(n), dst.at(1));
  } else if (data.type.is_string()) {  // its first n bytes, NUL or not: buf(str(p), 6)
    Place text = materialize(data);
    copy(dst.at(1), bpf::R10, text.off, std::min(n, data.type.size));
  } else {
    IntVal ptr = gen_int(data);
    pin(ptr);
    Reg rp = use(ptr, bpf::R3);
    if (rp != bpf::R3) b_.mov(bpf::R3, rp);
    Reg rl = use(len, bpf::R2);
    if (rl != bpf::R2) b_.mov(bpf::R2, rl);
    if (!len.is_imm) {  // bounded again where the verifier checks the call's size
      bpf::Label fits = b_.new_label("buflen");
      b_.jump(bpf::Cond::Le, bpf::R2, static_cast<int32_t>(n), fits);
      b_.mov(bpf::R2, static_cast<int32_t>(n));
      b_.bind(fits);
    }
    place_address(bpf::R1, dst.at(1));
    bool user = is_user_probe() && script_.options().probe_read_user;
    b_.call(user ? Helper::probe_read_user : Helper::probe_read);
    check_helper(user ? Helper::probe_read_user : Helper::probe_read, e.span);
    release(ptr);
  }
  store_int(len, 1, dst);
  release(len);
}

}  // namespace rawprobe::codegen
