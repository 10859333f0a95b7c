// tseries(n, interval, count[, agg]) into a map (bpftrace 0.26.1, docs/stdlib.md). The value
// holds `count` intervals, each { u64 epoch; s64 value; u64 count; }, one set per CPU:
//
//   epoch = bpf_ktime_get_tai_ns() / interval    (TAI, as bpftrace's: output turns an epoch
//                                                  back into wall-clock time by the kernel's
//                                                  TAI offset)
//   slot  = &value[epoch % count]
//   slot->epoch != epoch:  the interval is new here: { epoch, n, 1 } (an older epoch's slot is
//                          reused, so only the last `count` intervals stay)
//   else                   last: value = n; avg, sum: value += n; min, max: the smaller or
//                          larger; count += 1 (avg divides by it when printed)
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Reg;
using bpf::Size;
using lang::Expr;

namespace {
constexpr int16_t kEpoch = 0, kValue = 8, kCount = 16;
constexpr int32_t kIntervalBytes = 24;
}  // namespace

void ProgramGen::tseries_epoch(const Expr& call, int32_t slot) {
  b_.call(bpf::Helper::ktime_get_tai_ns);
  int64_t interval = call.type.interval_ns;
  if (interval <= INT32_MAX) {
    b_.alu(bpf::Op::Div, bpf::R0, static_cast<int32_t>(interval));
  } else {
    b_.ld_imm64(bpf::R1, static_cast<uint64_t>(interval));
    b_.alu(bpf::Op::Div, bpf::R0, bpf::R1);
  }
  b_.store(Size::DW, bpf::R10, static_cast<int16_t>(slot), bpf::R0);
}

void ProgramGen::tseries_update(const Expr& call, int32_t epoch_slot, Reg value, bpf::Label done) {
  const Type& t = call.type;
  int32_t intervals = static_cast<int32_t>(t.size / kIntervalBytes);
  // Scratch registers other than the value's and r0 (the map value).
  Reg scratch[3];
  int n = 0;
  for (Reg r : {bpf::R1, bpf::R2, bpf::R3, bpf::R4, bpf::R5})
    if (r != value && n < 3) scratch[n++] = r;
  Reg epoch = scratch[0], at = scratch[1], old = scratch[2];
  b_.load(Size::DW, epoch, bpf::R10, static_cast<int16_t>(epoch_slot));
  b_.mov(at, epoch);
  b_.alu(bpf::Op::Mod, at, intervals);
  // The verifier must see the slot within the value before the access.
  b_.jump(bpf::Cond::Ge, at, intervals, done);
  b_.alu(bpf::Op::Mul, at, kIntervalBytes);
  b_.alu(bpf::Op::Add, bpf::R0, at);
  bpf::Label fresh = b_.new_label("tseries_new_interval");
  b_.load(Size::DW, old, bpf::R0, kEpoch);
  b_.jump(bpf::Cond::Ne, old, epoch, fresh);
  b_.load(Size::DW, old, bpf::R0, kCount);
  b_.alu(bpf::Op::Add, old, 1);
  b_.store(Size::DW, bpf::R0, kCount, old);
  switch (t.tseries_agg) {
    case TSeriesAgg::Last: b_.store(Size::DW, bpf::R0, kValue, value); break;
    case TSeriesAgg::Avg:
    case TSeriesAgg::Sum:
      b_.load(Size::DW, old, bpf::R0, kValue);
      b_.alu(bpf::Op::Add, old, value);
      b_.store(Size::DW, bpf::R0, kValue, old);
      break;
    case TSeriesAgg::Min:
    case TSeriesAgg::Max: {
      b_.load(Size::DW, old, bpf::R0, kValue);
      // keep the old value unless n is beyond it
      bpf::Cond keep = t.tseries_agg == TSeriesAgg::Min ? (t.is_signed ? bpf::Cond::SLe : bpf::Cond::Le)
                                                         : (t.is_signed ? bpf::Cond::SGe : bpf::Cond::Ge);
      b_.jump(keep, old, value, done);
      b_.store(Size::DW, bpf::R0, kValue, value);
      break;
    }
  }
  b_.jump(done);
  b_.bind(fresh);
  b_.store(Size::DW, bpf::R0, kEpoch, epoch);
  b_.store(Size::DW, bpf::R0, kValue, value);
  b_.store_imm(Size::DW, bpf::R0, kCount, 1);
}

}  // namespace rawprobe::codegen
