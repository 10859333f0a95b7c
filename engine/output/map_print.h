// Printing a map as bpftrace 0.17 does (at exit and for print(@m, top, div)).
//
// The runtime reads every entry (BPF_MAP_GET_NEXT_KEY + LOOKUP, or the batch commands) into
// a MapEntries and calls append_map(). Value bytes per entry are the slots of
// engine/base/map_layout.h, one per CPU for per-CPU maps, reduced here:
//   Count, Sum            summed over CPUs
//   Min, Max              min/max over slots with set != 0
//   Avg, Stats            count and total each summed; average = total / count
//   Hist, LHist           summed bucket by bucket (hist_format.h)
//
// Order: count/sum/min/max/integer maps by value, avg/stats by average, hist/lhist by the
// total of their buckets, all ascending; maps of strings and tuples by key, part by part
// (integer parts as unsigned 64-bit, strings as strncmp). Equal values keep bpftrace's own
// order where it has one (hist/avg/stats: bytes of its 64-bit-widened key); where bpftrace's
// order comes from hash iteration (count/sum ties) that same key order is used, which is one
// of the orders bpftrace can print.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/map_layout.h"
#include "engine/base/types.h"
#include "engine/output/value_format.h"

namespace rawprobe {

struct MapDesc {
  std::string name;            // "@x", or "@" for the anonymous map
  std::vector<Type> key;       // key parts, laid out by layout_of(); empty: a scalar map
  Type value;                  // Integer, String, Tuple, or Count/Sum/Min/Max/Avg/Stats/Hist/LHist
  uint32_t ncpus = 1;          // per-CPU maps: the number of possible CPUs
  LHistParams lhist;           // LHist: the map's buckets (MapLayout::lhist)
  // Keyed by a stack printed folded: one "frame;frame;frame value" line per entry, for
  // flame graphs (folded_print.h); the key parts are already folded text.
  bool folded = false;
  std::vector<bool> stack_parts;  // folded: which key parts are stacks
};

uint32_t map_key_size(const MapDesc& map);    // 0 for scalar maps
uint32_t map_slot_size(const MapDesc& map);   // one CPU's value
uint32_t map_stride(const MapDesc& map);      // from one CPU's value to the next
uint32_t map_value_size(const MapDesc& map);  // what a lookup returns (all CPUs)

// Entries copied out of a BPF map: one buffer, no allocation per entry.
class MapEntries {
 public:
  MapEntries(uint32_t key_size, uint32_t value_size)
      : key_size_(key_size), value_size_(value_size) {}
  void reserve(size_t n) { bytes_.reserve(n * (key_size_ + value_size_)); }
  void clear() { bytes_.clear(); }
  // Copies one entry; `key` may be null for scalar maps.
  void add(const void* key, const void* value);
  size_t size() const { return key_size_ + value_size_ ? bytes_.size() / (key_size_ + value_size_) : 0; }
  bool empty() const { return bytes_.empty(); }
  const uint8_t* key(size_t i) const { return bytes_.data() + i * (key_size_ + value_size_); }
  const uint8_t* value(size_t i) const { return key(i) + key_size_; }
  uint8_t* mutable_value(size_t i) { return bytes_.data() + i * (key_size_ + value_size_) + key_size_; }
  uint32_t key_size() const { return key_size_; }
  uint32_t value_size() const { return value_size_; }

 private:
  uint32_t key_size_, value_size_;
  std::vector<uint8_t> bytes_;
};

// Appends the map as bpftrace prints it: text lines ("@x[1, abc]: 5\n"; an empty map prints
// an empty line) or one JSON record ({"type": "map", "data": {"@x": {"1,abc": 5}}}\n; an
// empty map prints nothing). top: only the last `top` entries; div: divide values.
void append_map(std::string& out, OutputFormat format, const MapDesc& map,
                const MapEntries& entries, uint32_t top = 0, uint32_t div = 0);

}  // namespace rawprobe
