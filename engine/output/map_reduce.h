// One map entry's value folded over CPUs: what both printing (map_print.h) and the metrics
// exposition (engine/metrics) read, so the per-CPU rules live in one place.
//   Count, Sum            summed over CPUs
//   Min, Max              min/max over slots with set != 0 (`set`: any slot was)
//   Avg, Stats            count and total each summed; average = total / count
//   Hist, LHist           summed bucket by bucket
//   Integer               the value, widened to 64 bits by its signedness
#pragma once
#include <cstdint>

#include "engine/output/map_print.h"

namespace rawprobe {

struct ReducedValue {
  uint64_t bits = 0;             // the value as printed and sorted (signed or not by its kind)
  int64_t count = 0, total = 0;  // Avg, Stats; total: Hist/LHist with hist_sum too
  bool set = false;              // Min, Max: some CPU wrote a value
};

// Buckets a Hist or LHist value of `map` holds (0 for other kinds).
uint32_t map_bucket_count(const MapDesc& map);

// Folds the map_value_size(map) bytes at `value`. Hist/LHist add their summed buckets to
// `buckets` (map_bucket_count(map) of them, zeroed by the caller); `buckets` may be null
// for other kinds.
ReducedValue reduce_value(const MapDesc& map, const uint8_t* value, uint64_t* buckets);

}  // namespace rawprobe
