#include "engine/output/tseries_print.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include "engine/base/bytes.h"
#include "engine/base/layout.h"
#include "engine/output/json_escape.h"
#include "engine/output/number_text.h"

namespace rawprobe {

namespace {

constexpr uint32_t kIntervalBytes = 24;  // { u64 epoch; s64 value; u64 count; } (gen_tseries.cpp)
constexpr int kGraphWidth = 53, kLabelWidth = 21;

struct Interval {
  int64_t value = 0;
  uint64_t count = 0;
};

// One key's intervals by epoch, its CPUs' slots combined by the map's aggregation.
std::map<uint64_t, Interval> intervals_of(const MapDesc& map, const uint8_t* value) {
  std::map<uint64_t, Interval> by_epoch;
  const Type& t = map.value;
  uint32_t n = t.size / kIntervalBytes, ncpus = std::max<uint32_t>(map.ncpus, 1);
  for (uint32_t cpu = 0; cpu < ncpus; ++cpu) {
    const uint8_t* slots = value + size_t(cpu) * map_stride(map);
    for (uint32_t i = 0; i < n; ++i) {
      const uint8_t* s = slots + i * kIntervalBytes;
      uint64_t epoch = load_unaligned<uint64_t>(s);
      int64_t v = load_unaligned<int64_t>(s + 8);
      uint64_t count = load_unaligned<uint64_t>(s + 16);
      if (!epoch || !count) continue;
      auto [at, fresh] = by_epoch.try_emplace(epoch, Interval{v, count});
      if (fresh) continue;
      Interval& have = at->second;
      bool less = t.is_signed ? v < have.value : uint64_t(v) < uint64_t(have.value);
      switch (t.tseries_agg) {
        case TSeriesAgg::Last: break;  // which CPU's was last is not recorded: the first stays
        case TSeriesAgg::Avg:
        case TSeriesAgg::Sum: have.value = int64_t(uint64_t(have.value) + uint64_t(v)); break;
        case TSeriesAgg::Min: if (less) have.value = v; break;
        case TSeriesAgg::Max: if (!less && v != have.value) have.value = v; break;
      }
      have.count += count;
    }
  }
  if (t.tseries_agg == TSeriesAgg::Avg)
    for (auto& [epoch, iv] : by_epoch)
      iv.value = t.is_signed ? iv.value / int64_t(iv.count) : int64_t(uint64_t(iv.value) / iv.count);
  return by_epoch;
}

// The unit the times show below the second: bpftrace's largest unit the interval is a whole
// number of (10:41:46.700 for 100ms).
int fraction_digits(int64_t interval_ns) {
  if (interval_ns % 1000000000 == 0) return 0;
  if (interval_ns % 1000000 == 0) return 3;
  if (interval_ns % 1000 == 0) return 6;
  return 9;
}

// CLOCK_TAI - CLOCK_REALTIME: the kernel's TAI offset, whole seconds.
int64_t tai_offset_ns() {
  timespec tai{}, real{};
  clock_gettime(CLOCK_TAI, &tai);
  clock_gettime(CLOCK_REALTIME, &real);
  int64_t d = (int64_t(tai.tv_sec) - int64_t(real.tv_sec)) * 1000000000 + (tai.tv_nsec - real.tv_nsec);
  return (d + (d >= 0 ? 500000000 : -500000000)) / 1000000000 * 1000000000;
}

// A TAI time in nanoseconds as local wall-clock time: "10:41:46.700", or ISO 8601 for JSON.
std::string clock_text(uint64_t tai_ns, int digits, bool iso) {
  int64_t ns = int64_t(tai_ns) - tai_offset_ns();
  time_t secs = time_t(ns / 1000000000);
  struct tm tm {};
  localtime_r(&secs, &tm);
  char buf[64];
  strftime(buf, sizeof buf, iso ? "%Y-%m-%dT%H:%M:%S" : "%H:%M:%S", &tm);
  std::string text = buf;
  if (digits) {
    int64_t frac = ns % 1000000000;
    for (int d = 9; d > digits; --d) frac /= 10;
    std::snprintf(buf, sizeof buf, ".%0*lld", digits, static_cast<long long>(frac));
    text += buf;
  }
  return text;
}

std::string number_text(int64_t v, bool is_signed) {
  std::string s;
  if (is_signed) append_number(s, v);
  else append_number(s, uint64_t(v));
  return s;
}

void pad(std::string& out, const std::string& text, size_t width, bool left) {
  size_t fill = text.size() < width ? width - text.size() : 0;
  if (!left) out.append(fill, ' ');
  out += text;
  if (left) out.append(fill, ' ');
}

using Points = std::vector<std::pair<uint64_t, std::optional<int64_t>>>;  // epoch, value

void append_graph(std::string& out, const MapDesc& map, const Points& points) {
  const Type& t = map.value;
  auto less = [&](int64_t a, int64_t b) { return t.is_signed ? a < b : uint64_t(a) < uint64_t(b); };
  std::optional<int64_t> lo, hi;
  for (const auto& [epoch, v] : points) {
    if (!v) continue;
    if (!lo || less(*v, *lo)) lo = v;
    if (!hi || less(*hi, *v)) hi = v;
  }
  if (!lo) {
    out += "<no data>\n";
    return;
  }
  int64_t min = *lo, max = *hi;
  if (min == max) {  // room on both sides of a flat line, unless at the type's edge
    if (t.is_signed ? min > INT64_MIN : uint64_t(min) > 0) min--;
    if (t.is_signed ? max < INT64_MAX : uint64_t(max) < UINT64_MAX) max++;
  }
  // Distances as the drawing needs them (b - a, in float as bpftrace computes them).
  auto dist = [&](int64_t a, int64_t b) {
    return t.is_signed ? float(double(b) - double(a)) : float(double(uint64_t(b)) - double(uint64_t(a)));
  };
  int digits = fraction_digits(t.interval_ns);
  std::string time_format = "hh:mm:ss";
  if (digits) time_format += digits == 3 ? ".ms" : digits == 6 ? ".us" : ".ns";
  size_t time_size = 8 + (digits ? 1 + size_t(digits) : 0);
  std::string lo_text = number_text(min, t.is_signed), hi_text = number_text(max, t.is_signed);
  auto scale_labels = [&] {
    out.append(time_size + 1, ' ');
    pad(out, lo_text, kLabelWidth, true);
    pad(out, hi_text, kGraphWidth - kLabelWidth, false);
    out += '\n';
  };
  scale_labels();
  pad(out, time_format, time_size + 1, true);
  out += '|' + std::string(kGraphWidth - 2, '_') + "|\n";
  int zero_at = 0;
  if (less(min, 0) && less(0, max)) zero_at = int(float(kGraphWidth) * dist(min, 0) / dist(min, max));
  for (const auto& [epoch, v] : points) {
    std::string line(kGraphWidth, ' ');
    line[0] = line[kGraphWidth - 1] = '|';
    if (zero_at > 0) line[size_t(zero_at)] = '.';
    out += clock_text(epoch * uint64_t(t.interval_ns), digits, false);
    out += ' ';
    if (!v) {
      out += line + " -\n";
      continue;
    }
    int at = min == max ? kGraphWidth / 2 : int(float(kGraphWidth - 1) * dist(min, *v) / dist(min, max));
    line[size_t(std::clamp(at, 0, kGraphWidth - 1))] = '*';
    out += line + ' ' + number_text(*v, t.is_signed) + '\n';
  }
  out.append(time_size, ' ');
  out += " v" + std::string(kGraphWidth - 2, '_') + "v\n";
  out.append(time_size, ' ');
  out += ' ';
  pad(out, lo_text, kLabelWidth, true);
  pad(out, hi_text, kGraphWidth - kLabelWidth, false);
  out += '\n';
}

void append_json_points(std::string& out, const MapDesc& map, const Points& points) {
  const Type& t = map.value;
  int digits = fraction_digits(t.interval_ns);
  out += '[';
  for (size_t i = 0; i < points.size(); ++i) {
    if (i) out += ", ";
    out += "{\"interval_start\": \"" + clock_text(points[i].first * uint64_t(t.interval_ns), digits, true) +
           "\", \"value\": ";
    out += points[i].second ? number_text(*points[i].second, t.is_signed) : "null";
    out += '}';
  }
  out += ']';
}

}  // namespace

void append_tseries_map(std::string& out, OutputFormat format, const MapDesc& map, const MapEntries& entries) {
  bool json = format == OutputFormat::Json;
  if (entries.empty()) {
    if (!json) out += '\n';
    return;
  }
  uint32_t n = map.value.size / kIntervalBytes;
  // Each key's intervals, and the latest epoch of each; keys print from least to most recently
  // updated, and every key over the same last num_intervals intervals.
  std::vector<std::map<uint64_t, Interval>> series;
  std::vector<std::pair<uint64_t, size_t>> latest;
  for (size_t i = 0; i < entries.size(); ++i) {
    series.push_back(intervals_of(map, entries.value(i)));
    latest.emplace_back(series.back().empty() ? 0 : series.back().rbegin()->first, i);
  }
  std::stable_sort(latest.begin(), latest.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  uint64_t last = latest.back().first;
  uint64_t first = last >= n - 1 ? last - (n - 1) : 0;
  StructLayout key_layout = layout_of(map.key);
  bool keyed = !map.key.empty();
  if (json) {
    out += "{\"type\": \"tseries\", \"data\": {\"";
    append_json_escaped(out, map.name);
    out += "\": ";
    if (keyed) out += '{';
  }
  for (size_t k = 0; k < latest.size(); ++k) {
    size_t i = latest[k].second;
    const auto& by_epoch = series[i];
    // From the key's first interval in the window (earlier empty ones are not shown).
    auto start = by_epoch.lower_bound(first);
    Points points;
    for (uint64_t e = start == by_epoch.end() ? last + 1 : start->first; e <= last && last; ++e) {
      auto it = by_epoch.find(e);
      points.emplace_back(e, it == by_epoch.end() ? std::nullopt : std::optional<int64_t>(it->second.value));
    }
    std::string key_text;
    if (keyed) append_key_text(key_text, map.key, key_layout.offsets, entries.key(i), format);
    if (json) {
      if (k) out += ", ";
      if (keyed) {
        out += '"';
        append_json_escaped(out, key_text);
        out += "\": ";
      }
      append_json_points(out, map, points);
      continue;
    }
    out += map.name;
    if (keyed) out += '[' + key_text + ']';
    out += ":\n";
    append_graph(out, map, points);
    out += '\n';
  }
  if (json) out += keyed ? "}}}\n" : "}}\n";
}

}  // namespace rawprobe
