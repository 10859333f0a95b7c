// path(p [, size]): the kernel's bpf_d_path(path, buf, size) writing the file name into the
// string's slot. The verifier takes only a pointer it types from BTF, so the argument's chain
// (checked by engine/lang/semantic_path.cpp) is read with plain loads, never bpf_probe_read,
// which would leave a bare number:
//   ctx                 r = ctx                        PTR_TO_CTX (an iterator's)
//   args.NAME, retval   r = *(u64 *)(ctx + slot)       PTR_TO_BTF_ID, trusted (fentry/fexit)
//   ctx->file           r = *(u64 *)(ctx + 8)          PTR_TO_BTF_ID_OR_NULL: checked for 0
//   p->q                r = *(u64 *)(p + off(q))       PTR_TO_BTF_ID (the verifier makes the
//                                                      load fault-safe, as probe_read is)
//   p->f_path, r.f      p + off                        the same type at an offset, which the
//                                                      verifier matches to struct path
// Every pointer loaded is checked against 0, as the verifier demands for the _OR_NULL ones; a
// NULL anywhere leaves the string empty.
// The slot is zeroed first: Linux 5.10's bpf_d_path takes its buffer as initialized memory.
// A path longer than the slot keeps its tail: d_path fills the buffer from its end with as much
// of the name as fits and returns ENAMETOOLONG (fs/d_path.c, prepend()), as bpftrace documents.
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Helper;
using bpf::Reg;
using lang::Expr;
using lang::ExprKind;

IntVal ProgramGen::btf_pointer(const Expr& e, bpf::Label on_null) {
  auto not_null = [&](IntVal v) {
    Temp t = own(v);
    b_.jump(bpf::Cond::Eq, acquire(t, bpf::R1), 0, on_null);
    return v;
  };
  if (e.kind == ExprKind::Builtin && e.builtin == lang::BuiltinId::Ctx) return not_null(builtin_int(e));
  bool args_slot = e.kind == ExprKind::Field && !reads_memory(e);  // args.NAME: read from the context
  if (e.kind == ExprKind::Builtin || args_slot) return not_null(gen_int(e));           // retval, args.NAME
  if (e.kind == ExprKind::Deref) return btf_pointer(*e.operands[0], on_null);      // *p lies where p points
  if (e.kind != ExprKind::Field) {
    fail(e.span, "path() cannot read this part with the kernel's BTF type");
    return IntVal::constant(0);
  }
  // p->f: from where p points; r.f: from where r lies. Both are what btf_pointer gives.
  IntVal base = btf_pointer(*e.operands[0], on_null);
  if (!e.type.is_pointer()) return offset_by(base, e.field_offset);
  Temp t = own(base);
  Reg r = acquire(t, bpf::R1);
  int64_t off = e.field_offset;
  if (off > INT16_MAX) {  // past a load's reach: move the pointer first
    b_.alu(bpf::Op::Add, r, static_cast<int32_t>(off));
    off = 0;
  }
  b_.load(bpf::Size::DW, r, r, static_cast<int16_t>(off));
  set(t, r);
  return not_null(IntVal::in_temp(t));
}

void ProgramGen::path_into(const Expr& e, uint32_t slot, Place dst) {
  uint32_t size = std::min(slot, e.type.size);
  zero(dst, slot);
  bpf::Label empty = b_.new_label("path_null");
  IntVal p = btf_pointer(*e.operands[0], empty);
  Reg rp = use(p, bpf::R1);
  if (rp != bpf::R1) b_.mov(bpf::R1, rp);
  place_address(bpf::R2, dst);
  b_.mov(bpf::R3, static_cast<int32_t>(size));
  b_.call(Helper::d_path);
  check_helper(Helper::d_path, e.span);
  release(p);
  b_.bind(empty);
}

}  // namespace rawprobe::codegen
