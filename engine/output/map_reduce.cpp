#include "engine/output/map_reduce.h"

#include <algorithm>
#include <cstring>

#include "engine/base/bytes.h"
#include "engine/output/number_text.h"

namespace rawprobe {
namespace {

int64_t load_s64(const uint8_t* p) { return load_unaligned<int64_t>(p); }

}  // namespace

uint32_t map_bucket_count(const MapDesc& map) {
  bool hist = map.value.kind == TypeKind::Hist || map.value.kind == TypeKind::LHist;
  return hist ? map_slot_size(map) / 8 - (map.hist_sum ? 1 : 0) : 0;
}

ReducedValue reduce_value(const MapDesc& map, const uint8_t* value, uint64_t* buckets) {
  ReducedValue r;
  TypeKind kind = map.value.kind;
  if (kind == TypeKind::Integer) {
    r.bits = read_widened(value, map.value.size, map.value.is_signed);
    return r;
  }
  uint32_t stride = map_stride(map), ncpus = std::max<uint32_t>(map.ncpus, 1), nbuckets = map_bucket_count(map);
  int64_t extreme = 0;
  for (uint32_t cpu = 0; cpu < ncpus; cpu++) {
    const uint8_t* slot = value + size_t(cpu) * stride;
    switch (kind) {
      case TypeKind::Count:
      case TypeKind::Sum: r.bits += uint64_t(load_s64(slot)); break;
      case TypeKind::Min:
      case TypeKind::Max: {
        if (!load_s64(slot + 8)) break;
        int64_t v = load_s64(slot);
        bool better = kind == TypeKind::Min ? v < extreme : v > extreme;
        if (!r.set || better) extreme = v;
        r.set = true;
        break;
      }
      case TypeKind::Avg:
      case TypeKind::Stats:
        r.count += load_s64(slot);
        r.total += load_s64(slot + 8);
        break;
      case TypeKind::Hist:
      case TypeKind::LHist:
        for (uint32_t b = 0; b < nbuckets; b++) {
          uint64_t c = uint64_t(load_s64(slot + b * 8));
          buckets[b] += c;
          r.bits += c;
        }
        if (map.hist_sum) r.total += load_s64(slot + nbuckets * 8);
        break;
      default: break;
    }
  }
  if (kind == TypeKind::Min || kind == TypeKind::Max) r.bits = uint64_t(extreme);
  if (kind == TypeKind::Avg || kind == TypeKind::Stats) r.bits = uint64_t(r.count ? r.total / r.count : 0);
  return r;
}

}  // namespace rawprobe
