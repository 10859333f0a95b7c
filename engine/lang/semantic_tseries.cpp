// tseries(n, interval_ns, num_intervals[, agg]), bpftrace 0.26.1 (docs/stdlib.md, "tseries"):
// a map value that keeps, for each of the last num_intervals intervals of interval_ns, the
// last value recorded in it, or their avg, max, min or sum. The interval and the count size
// the map's value (engine/base/types.h: TSeries), so both must be literals; a duration
// (`100ms`) is one.
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

namespace {
// One interval's slot, { u64 epoch; s64 value; u64 count; }: gen_tseries.cpp writes it.
constexpr uint32_t kIntervalBytes = 24;
// The value is one per CPU in a per-CPU map: keep it under the kernel's 32 KiB per-CPU
// allocation (PCPU_MIN_UNIT_SIZE), with room for the map's own bookkeeping.
constexpr uint64_t kMaxIntervals = 1024;

bool agg_named(const std::string& name, TSeriesAgg& agg) {
  static const std::pair<const char*, TSeriesAgg> names[] = {
      {"avg", TSeriesAgg::Avg}, {"max", TSeriesAgg::Max}, {"min", TSeriesAgg::Min}, {"sum", TSeriesAgg::Sum}};
  for (const auto& [n, a] : names)
    if (name == n) return agg = a, true;
  return false;
}
}  // namespace

void Checker::call_tseries(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  const Type& value = e.operands[0]->type;
  if (value.kind == TypeKind::None) return;  // already reported
  if (!value.is_integer())
    return error(e.operands[0]->span, "tseries() records integers (" + argument_type_name(value) + " provided)");
  e.type = Type{TypeKind::TSeries, 0, value.is_signed, {}};
  Expr& interval = *e.operands[1];
  Expr& count = *e.operands[2];
  if (interval.kind != ExprKind::Integer || interval.int_value == 0 || int64_t(interval.int_value) < 0)
    return error(interval.span, "tseries() expects its interval as a positive integer literal in nanoseconds or a "
                                "duration (100ms, 1s)");
  if (count.kind != ExprKind::Integer || count.int_value == 0 || count.int_value > kMaxIntervals)
    return error(count.span, "tseries() expects the number of intervals as an integer literal from 1 to " +
                                 std::to_string(kMaxIntervals));
  TSeriesAgg agg = TSeriesAgg::Last;
  if (e.operands.size() == 4) {
    const Expr& name = *e.operands[3];
    if (!name.is_literal_string() || !agg_named(name.str, agg))
      return error(name.span, "tseries() aggregates an interval by \"avg\", \"max\", \"min\" or \"sum\" (or keeps "
                              "its last value when given none)");
  }
  e.type.size = static_cast<uint32_t>(count.int_value) * kIntervalBytes;
  e.type.interval_ns = static_cast<int64_t>(interval.int_value);
  e.type.tseries_agg = agg;
}

}  // namespace rawprobe::lang
