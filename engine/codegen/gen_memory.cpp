// C values in memory: `*p`, `p->f`, `r.f`, `p[i]`, `a[i]`. An expression of a struct, union
// or array type is never loaded by itself: it is an address, and only the member or element
// finally used is read, or the whole value when it is stored (map value, variable, print),
// as bpftrace does. Memory is read with bpf_probe_read_user or _kernel, per the address
// space of the pointer it came through (bpf_probe_read before 5.5).
//
// A bit-field is read as the 1, 2, 4 or 8 bytes that hold it, shifted and masked:
//   struct { unsigned flag : 1; unsigned level : 3; int delta : 5; }
//   byte 0: d d d d l l l f | byte 1: . . . . . . . d      delta: 2 bytes >> 4 & 0x1f
#include "engine/codegen/gen.h"
#include "engine/ctypes/ctype.h"

namespace rawprobe::codegen {

using bpf::Reg;
using lang::Expr;
using lang::ExprKind;

namespace {

bool is_args_field(const Expr& e) {
  return e.kind == ExprKind::Field && e.operands[0]->kind == ExprKind::Builtin && e.operands[0]->name == "args";
}

uint32_t read_width(uint32_t bytes) {
  for (uint32_t w : {1u, 2u, 4u, 8u})
    if (bytes <= w) return w;
  return 8;
}

// Where -kk points when the read fails: at a dereference's '*', as bpftrace 0.17 does; at the
// whole `p->f` or `p[i]`.
lang::Span read_span(const Expr& e) {
  return e.kind == ExprKind::Deref ? lang::Span{e.span.begin, e.span.begin + 1} : e.span;
}

}  // namespace

bool ProgramGen::reads_memory(const Expr& e) {
  return e.kind == ExprKind::Deref || e.kind == ExprKind::Index || (e.kind == ExprKind::Field && !is_args_field(e));
}

IntVal ProgramGen::offset_by(IntVal base, int64_t offset) {
  if (offset == 0) return base;
  IntVal off = IntVal::constant(offset);
  return apply(lang::Op::Add, base, off, false);
}

// Where `p->f` or `p[i]` starts: the pointer's value; for `r.f` or `a[i]`, where r or a is.
IntVal ProgramGen::base_address(const Expr& base, bool& user) {
  IntVal addr;
  if (base.type.is_pointer()) {
    user = base.type.user_memory;
    addr = gen_int(base);
  } else {
    addr = address_of(base, user);
  }
  pin(addr);
  return addr;
}

IntVal ProgramGen::address_of(const Expr& e, bool& user) {
  // An array field of a tracepoint's record (args->saddr) is copied to the stack first.
  bool copied = e.kind == ExprKind::Call || is_args_field(e);
  switch (copied ? ExprKind::Call : e.kind) {
    case ExprKind::Deref: {
      const Expr& p = *e.operands[0];
      user = p.type.is_pointer() ? p.type.user_memory : is_user_probe();
      return gen_int(p);
    }
    case ExprKind::Field: {
      IntVal addr = base_address(*e.operands[0], user);
      return offset_by(addr, e.field_offset);
    }
    case ExprKind::Index: {
      IntVal addr = base_address(*e.operands[0], user);
      IntVal idx = gen_int(*e.operands[1]);
      pin(idx);
      if (e.scale > 1) {
        IntVal scale = IntVal::constant(e.scale);
        idx = apply(lang::Op::Mul, idx, scale, false);
      }
      return apply(lang::Op::Add, addr, idx, false);
    }
    case ExprKind::Variable:
    case ExprKind::Call: {
      // A struct copied into a variable lives on this program's stack; so does an array a
      // call makes (pton("::1")[15]), written there first.
      user = false;
      int32_t slot = copied ? materialize(e).off : variable_slot(e);
      Temp t = regs_.take();
      Reg r = target_reg(t, bpf::R1);
      b_.mov(r, bpf::R10);
      b_.alu(bpf::Op::Add, r, slot);
      set(t, r);
      return IntVal::in_temp(t);
    }
    default:
      fail(e.span, "this value has no address to read a field or element from");
      return IntVal::constant(0);
  }
}

IntVal ProgramGen::memory_int(const Expr& e) {
  bool user = false;
  IntVal addr = address_of(e, user);
  uint32_t bytes = e.type.size;
  if (e.type.is_pointer()) bytes = ctypes::size_of(e.type.ctype);  // 4 on 32-bit targets
  if (e.bit_width) bytes = read_width((e.bit_shift + e.bit_width + 7) / 8);
  Place buf{frame_.alloc(8), {}};
  b_.store_imm(bpf::Size::DW, bpf::R10, static_cast<int16_t>(buf.off), 0);
  Reg ra = use(addr, bpf::R3);
  read_memory(buf, bytes, ra, user, read_span(e));
  release(addr);
  Temp t = regs_.take();
  Reg r = target_reg(t, bpf::R1);
  b_.load(size_for(bytes), r, bpf::R10, static_cast<int16_t>(buf.off));
  if (e.bit_width) {
    if (e.bit_shift) b_.alu(bpf::Op::Rsh, r, e.bit_shift);
    if (e.bit_width < 32) {
      b_.alu(bpf::Op::And, r, static_cast<int32_t>((uint32_t{1} << e.bit_width) - 1));
    } else if (e.bit_width < 64) {
      b_.alu(bpf::Op::Lsh, r, 64 - e.bit_width);
      b_.alu(bpf::Op::Rsh, r, 64 - e.bit_width);
    }
  } else if (e.type.is_integer()) {
    extend(r, bytes, e.type.is_signed);
  }
  set(t, r);
  return IntVal::in_temp(t);
}

void ProgramGen::memory_into(const Expr& e, uint32_t slot, Place dst) {
  bool user = false;
  IntVal addr = address_of(e, user);
  uint32_t n = std::min(slot, e.type.size);
  Reg ra = use(addr, bpf::R3);
  read_memory(dst, n, ra, user, read_span(e));
  release(addr);
  if (slot > n) zero(dst.at(static_cast<int32_t>(n)), slot - n);
}

}  // namespace rawprobe::codegen
