#include "engine/metrics/map_families.h"

#include <vector>

#include "engine/base/layout.h"
#include "engine/output/map_reduce.h"
#include "engine/output/number_text.h"

namespace rawprobe::metrics {
namespace {

MetricType type_of(TypeKind kind) {
  switch (kind) {
    case TypeKind::Count: return MetricType::Counter;
    case TypeKind::Stats: return MetricType::Summary;
    case TypeKind::Hist:
    case TypeKind::LHist: return MetricType::Histogram;
    default: return MetricType::Gauge;
  }
}

// name="value",... for one entry's key, each part as its map key prints.
class LabelWriter {
 public:
  LabelWriter(const MapMetric& metric, const MapDesc& desc) : metric_(metric), layout_(layout_of(desc.key)) {
    for (const Type& part : desc.key) parts_.push_back({part});
  }
  void write(std::string& out, const uint8_t* key) {
    out.clear();
    static const std::vector<uint32_t> at_zero{0};
    for (size_t i = 0; i < parts_.size(); i++) {
      part_.clear();
      append_key_text(part_, parts_[i], at_zero, key + layout_.offsets[i], OutputFormat::Text);
      if (i) out += ',';
      out += metric_.labels[i];
      out += "=\"";
      append_label_value(out, part_);
      out += '"';
    }
  }

 private:
  const MapMetric& metric_;
  StructLayout layout_;
  std::vector<std::vector<Type>> parts_;
  std::string part_;
};

void append_histograms(ExpositionWriter& w, const MapDesc& desc, const MapEntries& entries, LabelWriter& labels) {
  uint32_t nbuckets = map_bucket_count(desc);
  std::vector<uint64_t> buckets(entries.size() * nbuckets, 0);
  std::vector<ReducedValue> totals(entries.size());
  uint32_t lowest = nbuckets, highest = 0;
  for (size_t i = 0; i < entries.size(); i++) {
    uint64_t* b = &buckets[i * nbuckets];
    totals[i] = reduce_value(desc, entries.value(i), b);
    for (uint32_t k = 0; k < nbuckets; k++)
      if (b[k]) {
        lowest = std::min(lowest, k);
        highest = std::max(highest, k);
      }
  }
  std::string text, le;
  for (size_t i = 0; i < entries.size(); i++) {
    labels.write(text, entries.key(i));
    const uint64_t* b = &buckets[i * nbuckets];
    uint64_t cumulative = 0;
    for (uint32_t k = 0; k <= highest && lowest < nbuckets; k++) {
      cumulative += b[k];
      int64_t bound;
      if (k < lowest || !bucket_upper_bound(desc, k, bound)) continue;
      le = "le=\"";
      append_number(le, bound);
      le += '"';
      w.sample("_bucket", text, le, cumulative);
    }
    w.sample("_bucket", text, "le=\"+Inf\"", totals[i].bits);
    w.sample("_count", text, "", totals[i].bits);
    if (desc.hist_sum) w.sample("_sum", text, "", totals[i].total);
  }
}

}  // namespace

bool bucket_upper_bound(const MapDesc& desc, uint32_t b, int64_t& le) {
  if (desc.value.kind == TypeKind::Hist) {
    // 0: v < 0; 1: v == 0; k >= 2: [2^(k-2), 2^(k-1)).
    le = b == 0 ? -1 : b == 1 ? 0 : int64_t((uint64_t(1) << (b - 1)) - 1);
    return true;
  }
  const LHistParams& p = desc.lhist;
  if (b + 1 >= lhist_bucket_count(p.min, p.max, p.step)) return false;
  le = p.min + int64_t(b) * p.step - 1;
  return true;
}

void append_map_family(ExpositionWriter& w, const MapMetric& metric, const MapDesc& desc,
                       const MapEntries& entries) {
  if (!metric.served) return;
  TypeKind kind = desc.value.kind;
  w.family(metric.name, type_of(kind), metric.help);
  LabelWriter labels(metric, desc);
  if (kind == TypeKind::Hist || kind == TypeKind::LHist) return append_histograms(w, desc, entries, labels);
  std::string text, value;
  bool is_signed = kind == TypeKind::Min || kind == TypeKind::Max || kind == TypeKind::Avg ||
                   ((kind == TypeKind::Sum || kind == TypeKind::Integer) && desc.value.is_signed);
  for (size_t i = 0; i < entries.size(); i++) {
    labels.write(text, entries.key(i));
    if (kind == TypeKind::String) {
      value.clear();
      append_value(value, OutputFormat::Text, desc.value, entries.value(i));
      std::string extra = metric.value_label + "=\"";
      append_label_value(extra, value);
      extra += '"';
      w.sample("", text, extra, uint64_t(1));
      continue;
    }
    ReducedValue r = reduce_value(desc, entries.value(i), nullptr);
    if (kind == TypeKind::Count) w.sample("_total", text, "", r.bits);
    else if (kind == TypeKind::Stats) {
      w.sample("_count", text, "", r.count);
      w.sample("_sum", text, "", r.total);
    } else if (is_signed) w.sample("", text, "", int64_t(r.bits));
    else w.sample("", text, "", r.bits);
  }
  if (kind != TypeKind::Stats) return;
  w.family(metric.name + "_average", MetricType::Gauge, metric.help);
  for (size_t i = 0; i < entries.size(); i++) {
    labels.write(text, entries.key(i));
    w.sample("", text, "", int64_t(reduce_value(desc, entries.value(i), nullptr).bits));
  }
}

}  // namespace rawprobe::metrics
