// Folding two entries of one map into one. Keys that differ in the kernel can print the same:
// `probe` and `func` are point ids there and text here (runtime/point_text.h), and two points
// can share a name (a uprobe and a uretprobe of one function both have func "bar"). bpftrace
// keys those by what they print, so it shows one line; merging the values gives that line.
#pragma once
#include <cstdint>

#include "engine/output/map_print.h"

namespace rawprobe {

// Combines the value at `from` into the value at `into` (both map_value_size(map) bytes, all
// CPUs), slot by slot as the map's aggregation combines two updates: counts, sums, averages
// and histogram buckets add, min/max keep the extreme of the slots that were set. A plain
// value (an assignment) keeps `into`: of two writes only one can be the last, and which one
// was is not recorded.
void merge_map_value(const MapDesc& map, uint8_t* into, const uint8_t* from);

// Merges entries whose key bytes are equal into the first of them, keeping first-seen order.
MapEntries merge_equal_keys(const MapDesc& map, const MapEntries& entries);

}  // namespace rawprobe
