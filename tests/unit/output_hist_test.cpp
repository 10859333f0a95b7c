// hist()/lhist() bucket indices checked against their definitions over the whole 64-bit
// range (the kernel oracle test covers values below 2^31, where bpftrace 0.17's log2 works).
#include <doctest/doctest.h>

#include <cstdint>

#include "engine/output/hist_format.h"

using namespace rawprobe;

TEST_CASE("hist buckets: [2^(k-2), 2^(k-1)) for k >= 2, 1 for zero, 0 for negatives") {
  CHECK(hist_bucket(-1) == 0);
  CHECK(hist_bucket(INT64_MIN) == 0);
  CHECK(hist_bucket(0) == 1);
  for (uint32_t k = 2; k < kHistBuckets; k++) {
    uint64_t low = uint64_t(1) << (k - 2);
    uint64_t high = k == kHistBuckets - 1 ? uint64_t(INT64_MAX) : (uint64_t(1) << (k - 1)) - 1;
    CHECK(hist_bucket(int64_t(low)) == k);
    CHECK(hist_bucket(int64_t(high)) == k);
    if (low > 1) CHECK(hist_bucket(int64_t(low - 1)) == k - 1);
  }
}

TEST_CASE("lhist buckets: below min, steps, at or above max") {
  const int64_t min = 10, max = 60, step = 25;
  uint32_t n = lhist_bucket_count(min, max, step);
  CHECK(n == uint32_t((max - min) / step + 2));
  CHECK(lhist_bucket(min - 1, min, max, step) == 0);
  CHECK(lhist_bucket(max, min, max, step) == n - 1);
  CHECK(lhist_bucket(INT64_MAX, min, max, step) == n - 1);
  for (int64_t v = min; v < max; v++)
    CHECK(lhist_bucket(v, min, max, step) == uint32_t((v - min) / step + 1));
}
