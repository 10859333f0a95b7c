#include "engine/output/map_print.h"

#include <algorithm>
#include <cstring>

#include "engine/output/folded_print.h"
#include "engine/output/hist_format.h"
#include "engine/output/map_reduce.h"
#include "engine/output/tseries_print.h"
#include "engine/output/json_escape.h"
#include "engine/base/layout.h"
#include "engine/output/number_text.h"

namespace rawprobe {

uint32_t map_key_size(const MapDesc& map) { return layout_of(map.key).size; }

// Output decodes the value type the runtime hands it (a text value replaces point ids), so
// the slot comes from that type by the layout's own rule.
uint32_t map_slot_size(const MapDesc& map) { return value_slot_size(map.value, map.lhist) + (map.hist_sum ? 8 : 0); }

uint32_t map_stride(const MapDesc& map) { return map.ncpus > 1 ? per_cpu_stride(map_slot_size(map)) : map_slot_size(map); }

uint32_t map_value_size(const MapDesc& map) { return map_stride(map) * std::max<uint32_t>(map.ncpus, 1); }

void MapEntries::add(const void* key, const void* value) {
  size_t at = bytes_.size();
  bytes_.resize(at + key_size_ + value_size_);
  if (key_size_) {
    if (key) std::memcpy(bytes_.data() + at, key, key_size_);
    else std::memset(bytes_.data() + at, 0, key_size_);
  }
  std::memcpy(bytes_.data() + at + key_size_, value, value_size_);
}

namespace {

// One entry reduced over CPUs to what it prints and sorts by (map_reduce.h).
using Reduced = ReducedValue;

enum class Order { ByValueSigned, ByValueUnsigned, ByKey };

Order order_of(const MapDesc& map) {
  switch (map.value.kind) {
    case TypeKind::Count:
    case TypeKind::Hist:
    case TypeKind::LHist: return Order::ByValueUnsigned;
    case TypeKind::Sum:
    case TypeKind::Integer:
      return map.value.is_signed ? Order::ByValueSigned : Order::ByValueUnsigned;
    case TypeKind::Min:
    case TypeKind::Max:
    case TypeKind::Avg:
    case TypeKind::Stats: return Order::ByValueSigned;
    default: return Order::ByKey;
  }
}

class MapPrinter {
 public:
  MapPrinter(const MapDesc& map, const MapEntries& entries)
      : map_(map), entries_(entries), key_layout_(layout_of(map.key)) {
    nbuckets_ = map_bucket_count(map);
  }

  void print(std::string& out, OutputFormat format, uint32_t top, uint32_t div);

 private:
  bool is_hist() const {
    return map_.value.kind == TypeKind::Hist || map_.value.kind == TypeKind::LHist;
  }
  bool is_stats() const {
    return map_.value.kind == TypeKind::Avg || map_.value.kind == TypeKind::Stats;
  }
  void reduce();
  std::vector<uint32_t> sorted() const;
  int compare_raw_keys(uint32_t a, uint32_t b) const;
  int compare_sort_keys(uint32_t a, uint32_t b) const;
  void append_entry_value(std::string& out, OutputFormat format, uint32_t i, uint32_t div) const;

  const MapDesc& map_;
  const MapEntries& entries_;
  StructLayout key_layout_;
  uint32_t nbuckets_ = 0;
  std::vector<Reduced> reduced_;
  std::vector<uint64_t> buckets_;  // hist: nbuckets_ per entry, summed over CPUs
};

void MapPrinter::reduce() {
  size_t n = entries_.size();
  reduced_.resize(n);
  if (is_hist()) buckets_.assign(n * nbuckets_, 0);
  for (size_t i = 0; i < n; i++)
    reduced_[i] = reduce_value(map_, entries_.value(i), is_hist() ? &buckets_[i * nbuckets_] : nullptr);
}

// bpftrace's own order for equal values: its key bytes (integers widened to 64 bits, little
// endian, then strings), compared as bytes.
int MapPrinter::compare_raw_keys(uint32_t a, uint32_t b) const {
  const uint8_t *ka = entries_.key(a), *kb = entries_.key(b);
  for (size_t i = 0; i < map_.key.size(); i++) {
    const Type& part = map_.key[i];
    const uint8_t *pa = ka + key_layout_.offsets[i], *pb = kb + key_layout_.offsets[i];
    int c;
    if (part.is_integer()) {
      uint64_t va = read_widened(pa, part.size, part.is_signed);
      uint64_t vb = read_widened(pb, part.size, part.is_signed);
      c = std::memcmp(&va, &vb, 8);
    } else if (part.is_string()) {
      c = std::strncmp(reinterpret_cast<const char*>(pa), reinterpret_cast<const char*>(pb),
                       part.size);
    } else {
      c = std::memcmp(pa, pb, type_size(part));
    }
    if (c) return c;
  }
  return 0;
}

// bpftrace's key order for maps of strings and tuples: part by part, integers as unsigned
// 64-bit, strings by strncmp; other parts do not take part.
int MapPrinter::compare_sort_keys(uint32_t a, uint32_t b) const {
  const uint8_t *ka = entries_.key(a), *kb = entries_.key(b);
  for (size_t i = 0; i < map_.key.size(); i++) {
    const Type& part = map_.key[i];
    const uint8_t *pa = ka + key_layout_.offsets[i], *pb = kb + key_layout_.offsets[i];
    if (part.is_integer()) {
      uint64_t va = read_widened(pa, part.size, part.is_signed);
      uint64_t vb = read_widened(pb, part.size, part.is_signed);
      if (va != vb) return va < vb ? -1 : 1;
    } else if (part.is_string()) {
      int c = std::strncmp(reinterpret_cast<const char*>(pa),
                           reinterpret_cast<const char*>(pb), part.size);
      if (c) return c;
    }
  }
  return 0;
}

std::vector<uint32_t> MapPrinter::sorted() const {
  std::vector<uint32_t> order(entries_.size());
  for (uint32_t i = 0; i < order.size(); i++) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return compare_raw_keys(a, b) < 0; });
  switch (order_of(map_)) {
    case Order::ByValueSigned:
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return int64_t(reduced_[a].bits) < int64_t(reduced_[b].bits);
      });
      break;
    case Order::ByValueUnsigned:
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return reduced_[a].bits < reduced_[b].bits;
      });
      break;
    case Order::ByKey:
      std::stable_sort(order.begin(), order.end(),
                       [&](uint32_t a, uint32_t b) { return compare_sort_keys(a, b) < 0; });
      break;
  }
  return order;
}

void append_stat(std::string& out, OutputFormat format, const char* name, int64_t v, bool first) {
  if (!first) out += ", ";
  if (format == OutputFormat::Json) {
    out += '"';
    out += name;
    out += "\": ";
  } else {
    out += name;
    out += ' ';
  }
  append_number(out, v);
}

void MapPrinter::append_entry_value(std::string& out, OutputFormat format, uint32_t i,
                                    uint32_t div) const {
  const Reduced& r = reduced_[i];
  switch (map_.value.kind) {
    case TypeKind::Count: return append_number(out, r.bits / div);
    case TypeKind::Sum:
    case TypeKind::Integer:
      if (map_.value.is_bool) {
        out += r.bits ? "true" : "false";
        return;
      }
      if (map_.value.is_signed) return append_number(out, int64_t(r.bits) / int64_t(div));
      return append_number(out, r.bits / div);
    case TypeKind::Min:
    case TypeKind::Max:
    case TypeKind::Avg: return append_number(out, int64_t(r.bits) / int64_t(div));
    case TypeKind::Stats: {
      bool json = format == OutputFormat::Json;
      if (json) out += '{';
      append_stat(out, format, "count", r.count, true);
      append_stat(out, format, "average", int64_t(r.bits), false);
      append_stat(out, format, "total", r.total, false);
      if (json) out += '}';
      return;
    }
    case TypeKind::Hist:
      return append_hist(out, format, &buckets_[size_t(i) * nbuckets_], nbuckets_, div);
    case TypeKind::LHist:
      return append_lhist(out, format, &buckets_[size_t(i) * nbuckets_], nbuckets_,
                          map_.lhist.min, map_.lhist.max, map_.lhist.step);
    default: return append_value(out, format, map_.value, entries_.value(i));
  }
}

void MapPrinter::print(std::string& out, OutputFormat format, uint32_t top, uint32_t div) {
  bool json = format == OutputFormat::Json;
  if (json && entries_.empty()) return;
  reduce();
  std::vector<uint32_t> order = sorted();
  if (div == 0) div = 1;
  // bpftrace applies top to every kind but stats(), and div to all but stats() and lhist().
  if (map_.value.kind == TypeKind::Stats) top = 0;
  uint32_t shown_div =
      map_.value.kind == TypeKind::Stats || map_.value.kind == TypeKind::LHist ? 1 : div;
  size_t skip = top && order.size() > top ? order.size() - top : 0;
  bool keyed = !map_.key.empty();

  if (json) {
    out += "{\"type\": \"";
    out += is_hist() ? "hist" : is_stats() ? "stats" : "map";
    out += "\", \"data\": {\"";
    append_json_escaped(out, map_.name);
    out += "\": ";
    if (keyed) out += '{';
  }
  std::string key_text;
  bool folded = map_.folded && !json &&
                (map_.value.kind == TypeKind::Count || map_.value.kind == TypeKind::Sum ||
                 map_.value.kind == TypeKind::Integer);
  for (size_t n = skip; n < order.size() && folded; n++) {
    append_folded_key(out, map_.key, key_layout_.offsets, map_.stack_parts, entries_.key(order[n]));
    out += ' ';
    append_entry_value(out, format, order[n], shown_div);
    out += '\n';
  }
  if (folded) return;
  for (size_t n = skip; n < order.size(); n++) {
    uint32_t i = order[n];
    if (n > skip) out += json ? ", " : "\n";
    if (json) {
      if (keyed) {
        key_text.clear();
        append_key_text(key_text, map_.key, key_layout_.offsets, entries_.key(i), format);
        out += '"';
        append_json_escaped(out, key_text);
        out += "\": ";
      }
    } else {
      out += map_.name;
      if (keyed) {
        out += '[';
        append_key_text(out, map_.key, key_layout_.offsets, entries_.key(i), format);
        out += ']';
      }
      out += ": ";
      if (is_hist()) out += '\n';
    }
    append_entry_value(out, format, i, shown_div);
  }
  if (json) {
    if (keyed) out += '}';
    out += "}}\n";
  } else {
    out += is_stats() ? "\n\n" : "\n";
  }
}

}  // namespace

void append_map(std::string& out, OutputFormat format, const MapDesc& map,
                const MapEntries& entries, uint32_t top, uint32_t div) {
  if (map.value.kind == TypeKind::TSeries) return append_tseries_map(out, format, map, entries);
  MapPrinter(map, entries).print(out, format, top, div);
}

}  // namespace rawprobe
