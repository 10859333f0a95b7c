// hist() and lhist(): which bucket a value counts in (the code generator must compute the
// same index) and how the buckets print (bpftrace 0.17's labels, counts and @ bars).
//
// hist: 65 buckets. 0: values < 0; 1: value 0; k >= 2: values in [2^(k-2), 2^(k-1)).
//   Deliberate difference: bpftrace 0.17's log2 stops at 2^31 (every value >= 2^31 lands in
//   [2G, 4G), and its JSON prints that bucket's bounds overflowed as int). rawprobe keeps
//   all 64 bits; for values below 2^31 the output is identical.
// lhist(v, min, max, step): the buckets of engine/base/map_layout.h.
#pragma once
#include <cstdint>
#include <string>

#include "engine/base/map_layout.h"
#include "engine/output/value_format.h"

namespace rawprobe {

uint32_t hist_bucket(int64_t value);
uint32_t lhist_bucket(int64_t value, int64_t min, int64_t max, int64_t step);

// The body of one hist (text: one line per bucket from the lowest to the highest non-empty
// one, each ending in '\n'; json: a [ {...}, ... ] list). `count` is kHistBuckets.
void append_hist(std::string& out, OutputFormat format, const uint64_t* buckets, uint32_t count,
                 uint32_t div);
void append_lhist(std::string& out, OutputFormat format, const uint64_t* buckets,
                  uint32_t count, int64_t min, int64_t max, int64_t step);

}  // namespace rawprobe
