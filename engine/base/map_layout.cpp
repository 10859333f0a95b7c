#include "engine/base/map_layout.h"

namespace rawprobe {

uint32_t lhist_bucket_count(int64_t min, int64_t max, int64_t step) { return uint32_t((max - min) / step + 2); }

uint32_t value_slot_size(const Type& value, const LHistParams& lhist) {
  switch (value.kind) {
    case TypeKind::Count:
    case TypeKind::Sum: return 8;
    case TypeKind::Min:
    case TypeKind::Max:
    case TypeKind::Avg:
    case TypeKind::Stats: return 16;
    case TypeKind::Hist: return kHistBuckets * 8;
    case TypeKind::LHist: return lhist_bucket_count(lhist.min, lhist.max, lhist.step) * 8;
    default: return type_size(value);
  }
}

}  // namespace rawprobe
