// Aggregates (strings, tuples, stacks, user symbols) written to memory: record fields, map keys and
// values, scratch variables. Copies and zeroing go in the widest chunks the alignment of both
// sides allows (the verifier checks stack alignment strictly).
//
// String ==/!= compares like bpftrace's strncmp over the shorter size: against a literal the
// bytes up to and including its NUL are compared in 8/4/2/1-byte chunks
// (`comm == "read_rand"`: one u64 and one u16 compare); two runtime strings byte by byte,
// stopping at a NUL both share.
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using bpf::Size;
using lang::Expr;
using lang::ExprKind;

namespace {

// The widest chunk (8, 4, 2, 1) that both offsets are aligned to and that fits in `left`.
uint32_t chunk(int32_t a, int32_t b, uint32_t left) {
  for (uint32_t c = 8; c > 1; c /= 2)
    if (left >= c && a % static_cast<int32_t>(c) == 0 && b % static_cast<int32_t>(c) == 0) return c;
  return 1;
}

bool is_scalar(const Type& t) {
  return t.kind == TypeKind::Integer || t.kind == TypeKind::Pointer || t.kind == TypeKind::Probe || t.kind == TypeKind::Func ||
         t.kind == TypeKind::KSym;
}

}  // namespace

Reg ProgramGen::place_base(Place p, Reg scratch) { return p.on_stack() ? bpf::R10 : acquire(p.ptr, scratch); }

void ProgramGen::place_address(Reg dst, Place p) {
  Reg base = place_base(p, dst);
  if (base != dst) b_.mov(dst, base);
  if (p.off) b_.alu(bpf::Op::Add, dst, p.off);
}

void ProgramGen::store_int(const IntVal& v, uint32_t size, Place dst) {
  Reg base = place_base(dst, bpf::R2);
  if (v.is_imm && v.imm >= INT32_MIN && v.imm <= INT32_MAX) {
    b_.store_imm(size_for(size), base, static_cast<int16_t>(dst.off), static_cast<int32_t>(v.imm));
    return;
  }
  Reg r = use(v, bpf::R1);
  b_.store(size_for(size), base, static_cast<int16_t>(dst.off), r);
}

void ProgramGen::zero(Place dst, uint32_t size) {
  Reg base = place_base(dst, bpf::R2);
  for (uint32_t done = 0; done < size;) {
    int32_t off = dst.off + static_cast<int32_t>(done);
    uint32_t c = chunk(off, 0, size - done);
    b_.store_imm(size_for(c), base, static_cast<int16_t>(off), 0);
    done += c;
  }
}

void ProgramGen::copy(Place dst, Reg src_base, int32_t src_off, uint32_t n) {
  Reg base = place_base(dst, bpf::R3);
  for (uint32_t done = 0; done < n;) {
    int32_t to = dst.off + static_cast<int32_t>(done), from = src_off + static_cast<int32_t>(done);
    uint32_t c = chunk(to, from, n - done);
    b_.load(size_for(c), bpf::R1, src_base, static_cast<int16_t>(from));
    b_.store(size_for(c), base, static_cast<int16_t>(to), bpf::R1);
    done += c;
  }
}

void ProgramGen::string_literal(const std::string& text, uint32_t slot, Place dst) {
  std::string bytes = text.substr(0, slot);
  bytes.resize(slot, '\0');
  Reg base = place_base(dst, bpf::R2);
  for (uint32_t done = 0; done < slot;) {
    int32_t off = dst.off + static_cast<int32_t>(done);
    uint32_t c = std::min<uint32_t>(chunk(off, 0, slot - done), 4);
    if (c == 4 && slot - done >= 8 && off % 8 == 0 && bytes.compare(done, 8, std::string(8, '\0')) == 0) c = 8;
    uint32_t value = 0;
    for (uint32_t i = 0; i < c && c <= 4; ++i) value |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[done + i])) << (8 * i);
    int32_t imm = static_cast<int32_t>(value);
    if (c == 2) imm = static_cast<int16_t>(value);
    if (c == 1) imm = static_cast<int8_t>(value);
    b_.store_imm(size_for(c), base, static_cast<int16_t>(off), imm);
    done += c;
  }
}

void ProgramGen::write(const Expr& e, const Type& slot, Place dst) {
  if (is_scalar(slot)) {
    IntVal v = gen_int(e);
    store_int(v, slot.size, dst);
    release(v);
    return;
  }
  if (e.kind == ExprKind::Ternary) {
    bpf::Label other = b_.new_label("else"), done = b_.new_label("endternary");
    branch(*e.operands[0], false, other);
    write(*e.operands[1], slot, dst);
    b_.jump(done);
    b_.bind(other);
    write(*e.operands[2], slot, dst);
    b_.bind(done);
    return;
  }
  uint32_t size = type_size(slot);
  uint32_t have = std::min(size, type_size(e.type));
  if (slot.kind == TypeKind::Tuple && e.kind == ExprKind::Tuple) {
    StructLayout l = layout_of(slot.fields);
    uint32_t end = 0;
    for (size_t i = 0; i < slot.fields.size(); ++i) {
      if (l.offsets[i] > end) zero(dst.at(static_cast<int32_t>(end)), l.offsets[i] - end);
      write(*e.operands[i], slot.fields[i], dst.at(static_cast<int32_t>(l.offsets[i])));
      end = l.offsets[i] + type_size(slot.fields[i]);
    }
    if (l.size > end) zero(dst.at(static_cast<int32_t>(end)), l.size - end);
    return;
  }
  switch (e.kind) {
    case ExprKind::String: string_literal(e.str, size, dst); return;
    case ExprKind::Builtin: builtin_into(e, dst); break;
    case ExprKind::Call: call_into(e, size, dst); return;
    case ExprKind::Field:
      if (reads_memory(e)) memory_into(e, size, dst);
      else field_into(e, size, dst);
      return;
    case ExprKind::Deref:
    case ExprKind::Index: memory_into(e, size, dst); return;
    case ExprKind::Map: map_read_into(e, have, dst); break;
    case ExprKind::Variable: copy(dst, bpf::R10, variable_slot(e), have); break;
    case ExprKind::TupleElement: tuple_element_into(e, size, dst); return;
    case ExprKind::Cast: {  // (int8[8])x: x's bytes, as they lie in memory
      IntVal v = gen_int(*e.operands[0]);
      store_int(v, size, dst);
      release(v);
      return;
    }
    default: fail(e.span, "cannot store this " + std::string(e.type.is_string() ? "string" : "value") + " here"); return;
  }
  if (size > have && slot.kind == TypeKind::String) zero(dst.at(static_cast<int32_t>(have)), size - have);
}

// (uint64)$a of an array: its bytes, loaded as one integer of the array's size.
IntVal ProgramGen::array_bytes_int(const Expr& array) {
  Place p = materialize(array);
  Temp t = regs_.take();
  bpf::Reg r = target_reg(t, bpf::R1);
  bpf::Reg base = place_base(p, bpf::R2);
  b_.load(size_for(array.type.size), r, base, static_cast<int16_t>(p.off));
  set(t, r);
  return IntVal::in_temp(t);
}

Place ProgramGen::materialize(const Expr& e) {
  if (e.kind == ExprKind::Variable) return Place{variable_slot(e), {}};
  Place p{frame_.alloc(type_size(e.type)), {}};
  write(e, e.type, p);
  return p;
}

void ProgramGen::string_compare_branch(const Expr& a_in, const Expr& b_in, bool equal_when, bpf::Label target,
                                       uint32_t limit) {
  const Expr* a = &a_in;
  const Expr* b = &b_in;
  if (a->kind == ExprKind::String) std::swap(a, b);
  uint32_t n = std::min({a->type.size, b->type.size, limit});
  bpf::Label differ = b_.new_label("strne");
  bpf::Label same = b_.new_label("streq");
  // Where a mismatch goes, and where equality goes.
  bpf::Label on_differ = equal_when ? differ : target;
  Place pa = materialize(*a);
  if (b->kind == ExprKind::String) {
    std::string lit = b->str.substr(0, n);
    lit.resize(n, '\0');
    for (uint32_t done = 0; done < n;) {
      int32_t off = pa.off + static_cast<int32_t>(done);
      uint32_t c = chunk(off, 0, n - done);
      uint64_t value = 0;
      for (uint32_t i = 0; i < c; ++i) value |= static_cast<uint64_t>(static_cast<uint8_t>(lit[done + i])) << (8 * i);
      b_.load(size_for(c), bpf::R1, bpf::R10, static_cast<int16_t>(off));
      if (c == 8 && value > INT32_MAX) {
        b_.ld_imm64(bpf::R2, value);
        b_.jump(bpf::Cond::Ne, bpf::R1, bpf::R2, on_differ);
      } else if (c == 8) {
        b_.jump(bpf::Cond::Ne, bpf::R1, static_cast<int32_t>(value), on_differ);
      } else {
        b_.jump32(bpf::Cond::Ne, bpf::R1, static_cast<int32_t>(static_cast<uint32_t>(value)), on_differ);
      }
      done += c;
    }
  } else {
    Place pb = materialize(*b);
    for (uint32_t i = 0; i < n; ++i) {
      b_.load(Size::B, bpf::R1, bpf::R10, static_cast<int16_t>(pa.off + static_cast<int32_t>(i)));
      b_.load(Size::B, bpf::R2, bpf::R10, static_cast<int16_t>(pb.off + static_cast<int32_t>(i)));
      b_.jump(bpf::Cond::Ne, bpf::R1, bpf::R2, on_differ);
      if (i + 1 < n) b_.jump(bpf::Cond::Eq, bpf::R1, 0, same);
    }
  }
  b_.bind(same);
  if (equal_when) {
    b_.jump(target);
    b_.bind(differ);
  } else {
    b_.bind(differ);  // unused: mismatches went to target
  }
}

// strncmp(a, b, n): 0 when the first n bytes agree (or both end together before), else 1,
// as bpftrace 0.17's strncmp, which tells equal from not and gives no order.
IntVal ProgramGen::strncmp_int(const Expr& e) {
  uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(e.operands[2]->int_value, UINT32_MAX));
  return jumped_value([&](bpf::Label differ) {
    string_compare_branch(*e.operands[0], *e.operands[1], false, differ, n);
  });
}

}  // namespace rawprobe::codegen
