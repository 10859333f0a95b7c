// Maps. Keys are built on the stack as output's layout_of() places the parts (a map without
// keys uses one u64 0, a count() without keys, a one-entry per-CPU array, the u32 index 0);
// reads of a missing key give 0 or zero bytes.
//
//   @m[k] = v        value and key on the stack, map_update_elem(BPF_ANY)
//   @m[k] (read)     map_lookup_elem; r = r0 ? *r0 : 0
//   @m[k] = count()  per-CPU hash: p = lookup; if (p) lock *p += 1 else update(k, 1)
//   @c = count()     per-CPU array: p = lookup(0); if (p) lock *p += 1
//   sum(v)           the same with v
//   min/max/avg/stats/hist/lhist: the entry is created from the all-zero value of the
//                    `.zero` array map (read through a direct map-value pointer, 5.2+) when
//                    missing, then updated in place: min/max { s64 value; u64 set },
//                    avg/stats { count; total }, hist/lhist u64 buckets[] (map_print.h)
//   delete(@m[k])    map_delete_elem (r0 0 when the element went: gen_map_keys.cpp turns it
//                    into delete()'s value); delete(@c) of a keyless count(): zero(@c), every
//                    CPU's slot zeroed by user space (an array entry cannot be deleted, and
//                    a program reaches only its own CPU's slot)
#include "engine/codegen/gen.h"
#include "engine/base/map_layout.h"

namespace rawprobe::codegen {

using bpf::Reg;
using bpf::Size;
using lang::Expr;

Place ProgramGen::map_key(const Expr& map) {
  const StructLayout& l = script_.layout(map.map_id).key;
  Place key{frame_.alloc(l.size), {}};
  if (map.operands.empty()) {
    b_.store_imm(l.size == 4 ? Size::W : Size::DW, bpf::R10, static_cast<int16_t>(key.off), 0);
    return key;
  }
  const lang::MapInfo& info = script_.info().maps[map.map_id];
  uint32_t end = 0;
  for (size_t i = 0; i < map.operands.size(); ++i) {
    if (l.offsets[i] > end) zero(key.at(static_cast<int32_t>(end)), l.offsets[i] - end);
    write(*map.operands[i], info.key[i], key.at(static_cast<int32_t>(l.offsets[i])));
    end = l.offsets[i] + type_size(info.key[i]);
  }
  if (l.size > end) zero(key.at(static_cast<int32_t>(end)), l.size - end);
  return key;
}

void ProgramGen::key_address(Reg dst, Place key) { place_address(dst, key); }

void ProgramGen::lookup(const Expr& map, Place key) {
  b_.load_map_fd(bpf::R1, bpf::MapHandle{script_.user_map(map.map_id)});
  key_address(bpf::R2, key);
  b_.call(bpf::Helper::map_lookup_elem);
}

// r0 = p ? *p : 0 (on the null path r0 already is 0, and the verifier knows it).
IntVal ProgramGen::map_read_int(const Expr& map, lang::Span span) {
  Place key = map_key(map);
  lookup(map, key);
  check_helper(bpf::Helper::map_lookup_elem, span);
  bpf::Label missing = b_.new_label("missing");
  b_.jump(bpf::Cond::Eq, bpf::R0, 0, missing);
  b_.load(Size::DW, bpf::R0, bpf::R0, 0);
  b_.bind(missing);
  return IntVal::r0();
}

void ProgramGen::map_read_into(const Expr& map, uint32_t size, Place dst) {
  Place key = map_key(map);
  lookup(map, key);
  check_helper(bpf::Helper::map_lookup_elem, map.span);
  bpf::Label missing = b_.new_label("missing"), done = b_.new_label("read");
  b_.jump(bpf::Cond::Eq, bpf::R0, 0, missing);
  copy(dst, bpf::R0, 0, size);
  b_.jump(done);
  b_.bind(missing);
  zero(dst, size);
  b_.bind(done);
}

void ProgramGen::map_update(const Expr& map, Place key, Place value, lang::Span span) {
  b_.load_map_fd(bpf::R1, bpf::MapHandle{script_.user_map(map.map_id)});
  key_address(bpf::R2, key);
  place_address(bpf::R3, value);
  b_.mov(bpf::R4, 0);  // BPF_ANY
  b_.call(bpf::Helper::map_update_elem);
  check_helper(bpf::Helper::map_update_elem, span);
  count_failed_update(map);
}

void ProgramGen::count_failed_update(const Expr& map) {
  // A hash map holding max_entries keys refuses a new one (E2BIG); bpftrace 0.17 says so only
  // with -k, one line per failure (as rawprobe -k does too: gen_helper_errors.cpp). Count it,
  // so the runtime can warn once at exit, -k or not. Without a
  // branch: a branch on r0 would be one more state for the verifier to explore per update,
  // and a loop of 5000 count() inserts then exceeds its 8192 pending jumps ("The sequence of
  // 8193 jumps is too complex"). So add r0 >> 63 (1 on an error, else 0), atomically, since
  // programs on other CPUs add to the same u64. A one-entry array never refuses.
  if (script_.layout(map.map_id).single_entry) return;
  b_.alu(bpf::Op::Rsh, bpf::R0, 63);
  b_.load_map_value(bpf::R1, bpf::MapHandle{script_.failed_updates_map()}, 8 * static_cast<uint32_t>(map.map_id));
  b_.atomic(bpf::Atomic::Add, Size::DW, bpf::R1, 0, bpf::R0);
}

void ProgramGen::add_to_slot(int16_t off, const IntVal& v) {
  // r0 points at this CPU's own copy of an aggregation's value (every aggregation map is
  // per-CPU: map_layout.cpp), which no other CPU writes, so a plain load, add and store is
  // enough; an atomic add costs more (a locked add on x86: bench, bpf_stats, 183 against
  // 148 ns a hit for bpftrace's plain add). r1 is free: the lookup call before this clobbered
  // it, so v lives in a callee-saved register, on the stack or in the instruction.
  b_.load(Size::DW, bpf::R1, bpf::R0, off);
  if (v.is_imm && v.imm >= INT32_MIN && v.imm <= INT32_MAX)
    b_.alu(bpf::Op::Add, bpf::R1, static_cast<int32_t>(v.imm));
  else
    b_.alu(bpf::Op::Add, bpf::R1, use(v, bpf::R2));
  b_.store(Size::DW, bpf::R0, off, bpf::R1);
}

void ProgramGen::map_write_int(const Expr& map, Place key, const IntVal& v, lang::Span span) {
  Place value{frame_.alloc(8), {}};
  store_int(v, 8, value);
  map_update(map, key, value, span);
}

void ProgramGen::map_write(const Expr& map, const Expr& value, lang::Span span) {
  const Type& type = script_.info().maps[map.map_id].value;
  if (type.kind == TypeKind::Integer || type.kind == TypeKind::Probe || type.kind == TypeKind::Func ||
      type.kind == TypeKind::KSym) {
    IntVal v = gen_int(value);
    pin(v);
    Place key = map_key(map);
    map_write_int(map, key, v, span);
    release(v);
    return;
  }
  Place slot{frame_.alloc(script_.layout(map.map_id).slot_size), {}};
  write(value, type, slot);
  Place key = map_key(map);
  map_update(map, key, slot, span);
}

void ProgramGen::map_delete(const Expr& map, lang::Span span) {
  if (script_.layout(map.map_id).single_entry) return simple_event(kAsyncZeroMap, {static_cast<uint64_t>(map.map_id)});
  Place key = map_key(map);
  b_.load_map_fd(bpf::R1, bpf::MapHandle{script_.user_map(map.map_id)});
  key_address(bpf::R2, key);
  b_.call(bpf::Helper::map_delete_elem);
  check_helper(bpf::Helper::map_delete_elem, span);
}

namespace {

// idx = hist bucket of v (map_layout.h): 0 below zero, 1 for zero, else 2 + floor(log2 v).
void hist_index(bpf::Builder& b, Reg v, Reg idx, Reg tmp) {
  bpf::Label done = b.new_label("hist");
  b.mov(idx, 0);
  b.jump(bpf::Cond::SLt, v, 0, done);
  b.mov(idx, 1);
  b.jump(bpf::Cond::Eq, v, 0, done);
  b.mov(idx, 2);
  for (int shift = 32; shift >= 1; shift /= 2) {
    bpf::Label skip = b.new_label("log2");
    b.mov(tmp, v);
    b.alu(bpf::Op::Rsh, tmp, shift);
    b.jump(bpf::Cond::Eq, tmp, 0, skip);
    b.mov(v, tmp);
    b.alu(bpf::Op::Add, idx, shift);
    b.bind(skip);
  }
  b.bind(done);
}

// idx = lhist bucket of v: 0 below min, the last one from max on, else (v - min) / step + 1.
void lhist_index(bpf::Builder& b, Reg v, Reg idx, int64_t min, int64_t max, int64_t step) {
  bpf::Label done = b.new_label("lhist");
  uint32_t last = lhist_bucket_count(min, max, step) - 1;
  b.mov(idx, 0);
  b.jump(bpf::Cond::SLt, v, static_cast<int32_t>(min), done);
  b.mov(idx, static_cast<int32_t>(last));
  b.jump(bpf::Cond::SGe, v, static_cast<int32_t>(max), done);
  b.mov(idx, v);
  b.alu(bpf::Op::Sub, idx, static_cast<int32_t>(min));
  b.alu(bpf::Op::Div, idx, static_cast<int32_t>(step));
  b.alu(bpf::Op::Add, idx, 1);
  b.bind(done);
}

}  // namespace

void ProgramGen::aggregate(const Expr& map, const Expr& call) {
  TypeKind kind = call.type.kind;
  IntVal v = call.operands.empty() ? IntVal::constant(1) : gen_int(*call.operands[0]);
  pin(v);
  bool simple = kind == TypeKind::Count || kind == TypeKind::Sum;
  IntVal index;
  if (kind == TypeKind::Hist || kind == TypeKind::LHist) {
    Temp vt = own(v);
    Temp it = regs_.take();
    Reg rv = acquire(vt, bpf::R1);
    b_.mov(bpf::R3, rv);  // the index computation consumes its input
    Reg ri = target_reg(it, bpf::R4);
    if (kind == TypeKind::Hist) {
      hist_index(b_, bpf::R3, ri, bpf::R5);
    } else {
      for (size_t i = 1; i < 4; ++i) {
        int64_t p = static_cast<int64_t>(call.operands[i]->int_value);
        if (p < INT32_MIN || p > INT32_MAX) {
          fail(call.operands[i]->span, "lhist() bounds and step must fit in 32 bits");
          return;
        }
      }
      if (call.operands[3]->int_value == 0) {
        fail(call.operands[3]->span, "lhist() step must not be 0");
        return;
      }
      lhist_index(b_, bpf::R3, ri, static_cast<int64_t>(call.operands[1]->int_value),
                  static_cast<int64_t>(call.operands[2]->int_value), static_cast<int64_t>(call.operands[3]->int_value));
    }
    set(it, ri);
    index = IntVal::in_temp(it);
  }
  int32_t epoch_slot = 0;
  if (kind == TypeKind::TSeries) {  // its interval, read before the lookup (gen_tseries.cpp)
    epoch_slot = frame_.alloc(8);
    tseries_epoch(call, epoch_slot);
  }
  Place key = map_key(map);
  lookup(map, key);
  bpf::Label found = b_.new_label("found"), done = b_.new_label("aggregated");
  // A missing key is how an aggregation's first value begins, but -kk reports it, as bpftrace's.
  if (!script_.layout(map.map_id).single_entry) check_helper(bpf::Helper::map_lookup_elem, call.span);
  if (script_.layout(map.map_id).single_entry) {
    // An array's one entry always exists; the verifier still asks for the null check.
    b_.jump(bpf::Cond::Eq, bpf::R0, 0, done);
  } else {
    b_.jump(bpf::Cond::Ne, bpf::R0, 0, found);
    if (simple) {
      // Missing: insert v as this CPU's value (the others start at zero).
      Place value{frame_.alloc(8), {}};
      store_int(v, 8, value);
      map_update(map, key, value, call.span);
      b_.jump(done);
    } else {
      // Missing: insert zeros, then update in place like an existing entry.
      b_.load_map_fd(bpf::R1, bpf::MapHandle{script_.user_map(map.map_id)});
      key_address(bpf::R2, key);
      b_.load_map_value(bpf::R3, bpf::MapHandle{script_.zero_map(script_.layout(map.map_id).slot_size)}, 0);
      b_.mov(bpf::R4, 0);
      b_.call(bpf::Helper::map_update_elem);
      check_helper(bpf::Helper::map_update_elem, call.span);
      count_failed_update(map);
      lookup(map, key);
      b_.jump(bpf::Cond::Eq, bpf::R0, 0, done);
    }
  }
  b_.bind(found);
  auto value_reg = [&] { return use(v, bpf::R2); };
  switch (kind) {
    case TypeKind::Count:
    case TypeKind::Sum:
      add_to_slot(0, v);
      break;
    case TypeKind::Min:
    case TypeKind::Max: {
      bpf::Label replace = b_.new_label("replace");
      bool is_signed = call.type.is_signed;
      Reg rv = value_reg();
      b_.load(Size::DW, bpf::R1, bpf::R0, 8);
      b_.jump(bpf::Cond::Eq, bpf::R1, 0, replace);
      b_.load(Size::DW, bpf::R1, bpf::R0, 0);
      // keep the old value unless v is beyond it
      bpf::Cond keep = kind == TypeKind::Min ? (is_signed ? bpf::Cond::SGe : bpf::Cond::Ge)
                                             : (is_signed ? bpf::Cond::SLe : bpf::Cond::Le);
      b_.jump(keep, rv, bpf::R1, done);
      b_.bind(replace);
      b_.store(Size::DW, bpf::R0, 0, rv);
      b_.store_imm(Size::DW, bpf::R0, 8, 1);
      break;
    }
    case TypeKind::Avg:
    case TypeKind::Stats:
      b_.load(Size::DW, bpf::R1, bpf::R0, 0);
      b_.alu(bpf::Op::Add, bpf::R1, 1);
      b_.store(Size::DW, bpf::R0, 0, bpf::R1);
      b_.load(Size::DW, bpf::R1, bpf::R0, 8);
      b_.alu(bpf::Op::Add, bpf::R1, value_reg());
      b_.store(Size::DW, bpf::R0, 8, bpf::R1);
      break;
    case TypeKind::Hist:
    case TypeKind::LHist: {
      const MapLayout& layout = script_.layout(map.map_id);
      uint32_t buckets = layout.slot_size / 8 - (layout.hist_sum ? 1 : 0);
      // Metrics' _sum, after the buckets (map_layout.h).
      if (layout.hist_sum) add_to_slot(int16_t(buckets * 8), v);
      Reg ri = use(index, bpf::R3);
      b_.mov(bpf::R1, ri);
      // The verifier must see the index within the value before the access.
      b_.jump(bpf::Cond::Ge, bpf::R1, static_cast<int32_t>(buckets), done);
      b_.alu(bpf::Op::Lsh, bpf::R1, 3);
      b_.alu(bpf::Op::Add, bpf::R0, bpf::R1);
      b_.load(Size::DW, bpf::R1, bpf::R0, 0);
      b_.alu(bpf::Op::Add, bpf::R1, 1);
      b_.store(Size::DW, bpf::R0, 0, bpf::R1);
      break;
    }
    case TypeKind::TSeries: tseries_update(call, epoch_slot, value_reg(), done); break;
    default: fail(call.span, call.name + "() cannot be generated for this map"); break;
  }
  b_.bind(done);
  release(v);
  release(index);
}

}  // namespace rawprobe::codegen
