#include "engine/output/map_merge.h"

#include <cstring>
#include <string>
#include <unordered_map>

#include "engine/base/bytes.h"

namespace rawprobe {

namespace {

int64_t load(const uint8_t* p) { return load_unaligned<int64_t>(p); }

void store(uint8_t* p, int64_t v) { std::memcpy(p, &v, 8); }

void add_words(uint8_t* into, const uint8_t* from, uint32_t words) {
  for (uint32_t w = 0; w < words; ++w)
    store(into + w * 8, int64_t(uint64_t(load(into + w * 8)) + uint64_t(load(from + w * 8))));
}

}  // namespace

void merge_map_value(const MapDesc& map, uint8_t* into, const uint8_t* from) {
  uint32_t slot = map_slot_size(map);
  uint32_t ncpus = map.ncpus > 1 ? map.ncpus : 1;
  uint32_t stride = map_stride(map);
  TypeKind kind = map.value.kind;
  for (uint32_t cpu = 0; cpu < ncpus; ++cpu) {
    uint8_t* a = into + size_t(cpu) * stride;
    const uint8_t* b = from + size_t(cpu) * stride;
    switch (kind) {
      case TypeKind::Count:
      case TypeKind::Sum:
      case TypeKind::Avg:
      case TypeKind::Stats:
      case TypeKind::Hist:
      case TypeKind::LHist: add_words(a, b, slot / 8); break;
      case TypeKind::Min:
      case TypeKind::Max: {
        // { s64 value; u64 set; }: a slot never written on that CPU does not take part.
        if (!load(b + 8)) break;
        bool better = kind == TypeKind::Min ? load(b) < load(a) : load(b) > load(a);
        if (!load(a + 8) || better) std::memcpy(a, b, 16);
        break;
      }
      default: return;  // a plain value: the first one stays
    }
  }
}

MapEntries merge_equal_keys(const MapDesc& map, const MapEntries& entries) {
  MapEntries merged(entries.key_size(), entries.value_size());
  merged.reserve(entries.size());
  std::unordered_map<std::string, size_t> index_of_key;
  for (size_t i = 0; i < entries.size(); ++i) {
    std::string key(reinterpret_cast<const char*>(entries.key(i)), entries.key_size());
    auto [at, fresh] = index_of_key.emplace(std::move(key), merged.size());
    if (fresh) merged.add(entries.key(i), entries.value(i));
    else merge_map_value(map, merged.mutable_value(at->second), entries.value(i));
  }
  return merged;
}

}  // namespace rawprobe
