// A script map's physical layout: the one description of how a map sits in the kernel. The
// semantic pass fills it (engine/lang/map_layout.cpp); code generation creates and writes the
// map by it, the runtime reads the map by it and output decodes the values by it.
//
//   kernel_type   BPF_MAP_TYPE_HASH            plain values (integers, strings, tuples)
//                 BPF_MAP_TYPE_PERCPU_HASH     aggregations (count, sum, ..., lhist)
//                 BPF_MAP_TYPE_PERCPU_ARRAY    a count() without keys: one entry, index 0
//   key           the C struct of the key parts (layout.h); without keys one u64 0, or the
//                 u32 index of the one-entry array
//   slot_size     one CPU's value (value_slot_size)
//
// Value slots, as the code generator writes them:
//   Integer/String/Tuple  the value itself (layout.h)
//   Count, Sum            u64 / s64
//   Min, Max              { s64 value; u64 set; }  (set: written on this CPU at all)
//   Avg, Stats            { s64 count; s64 total; }
//   Hist                  u64 buckets[kHistBuckets]
//   LHist                 u64 buckets[lhist_bucket_count(min, max, step)]
//   Hist, LHist with hist_sum: the buckets, then s64 sum of the values (metrics' _sum; kept
//                         only when a run serves metrics, so other runs pay nothing for it)
// A lookup of a per-CPU map fills one slot per possible CPU, each padded to 8 bytes (the
// kernel's per-CPU copy layout): per_cpu_stride().
#pragma once
#include <cstdint>

#include "engine/base/layout.h"
#include "engine/base/types.h"

namespace rawprobe {

// hist(): 0: values < 0; 1: value 0; k >= 2: values in [2^(k-2), 2^(k-1)).
inline constexpr uint32_t kHistBuckets = 65;

// lhist(v, min, max, step): (max - min) / step + 2 buckets. 0: v < min; last: v >= max;
// k in between: [min + (k-1)*step, min + k*step).
struct LHistParams {
  int64_t min = 0, max = 0, step = 1;
  bool operator==(const LHistParams&) const = default;
};
uint32_t lhist_bucket_count(int64_t min, int64_t max, int64_t step);

// Bytes one CPU's value of this type occupies (lhist: by its parameters).
uint32_t value_slot_size(const Type& value, const LHistParams& lhist);
// Bytes between two CPUs' copies of a per-CPU value of `slot` bytes.
inline uint32_t per_cpu_stride(uint32_t slot) { return (slot + 7) / 8 * 8; }

struct MapLayout {
  uint32_t kernel_type = 0;    // BPF_MAP_TYPE_*
  StructLayout key;            // the kernel key
  uint32_t slot_size = 0;      // one CPU's value
  bool per_cpu = false;        // one value per possible CPU
  bool single_entry = false;   // a one-entry array: its entry cannot be deleted
  LHistParams lhist;           // LHist values only
  bool hist_sum = false;       // Hist/LHist: the slot ends in the sum of the values

  // Bytes a lookup fills: per-CPU maps hold one stride per possible CPU.
  uint32_t lookup_size(uint32_t ncpus) const { return per_cpu ? per_cpu_stride(slot_size) * ncpus : slot_size; }
};

}  // namespace rawprobe
