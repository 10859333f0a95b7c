#include "engine/output/hist_format.h"

#include <bit>

#include "engine/output/number_text.h"

namespace rawprobe {

uint32_t hist_bucket(int64_t value) {
  if (value < 0) return 0;
  if (value == 0) return 1;
  return uint32_t(std::bit_width(uint64_t(value))) + 1;
}

uint32_t lhist_bucket(int64_t value, int64_t min, int64_t max, int64_t step) {
  if (value < min) return 0;
  if (value >= max) return lhist_bucket_count(min, max, step) - 1;
  return uint32_t((value - min) / step + 1);
}

namespace {

constexpr int kBarWidth = 52;

// bpftrace sizes bars from the counts truncated to int; kept so bars are identical.
int max_as_int(const uint64_t* buckets, uint32_t count) {
  int max_value = 0;
  for (uint32_t i = 0; i < count; i++)
    if (int(buckets[i]) > max_value) max_value = int(buckets[i]);
  return max_value;
}

void append_padded(std::string& out, const std::string& text, size_t width, bool left) {
  if (!left && text.size() < width) out.append(width - text.size(), ' ');
  out += text;
  if (left && text.size() < width) out.append(width - text.size(), ' ');
}

// One text line: "[4, 8)                 1 |@@@@@   ...   |".
void append_bar_line(std::string& out, const std::string& label, uint64_t shown,
                     uint64_t count, int max_value) {
  append_padded(out, label, 16, true);
  std::string number;
  append_number(number, shown);
  append_padded(out, number, 8, false);
  out += " |";
  int bar = int(count / float(max_value) * kBarWidth);
  out.append(size_t(bar), '@');
  out.append(size_t(kBarWidth - bar), ' ');
  out += "|\n";
}

// 2^power with K/M/G/T for each factor of 2^10: "512", "1K", "4M".
std::string hist_label(int power) {
  const char* suffixes = "\0KMGT";
  int unit = power >= 40 ? 4 : power / 10;
  std::string label = std::to_string(1 << (power - unit * 10));
  if (unit) label += suffixes[unit];
  return label;
}

std::string lhist_label(int64_t number) {
  int n = int(number);  // bpftrace formats lhist bounds as int
  if (n == 0) return "0";
  if (n % 1048576 == 0) return std::to_string(n / 1048576) + "M";
  if (n % 1024 == 0) return std::to_string(n / 1024) + "K";
  return std::to_string(n);
}

void append_json_bucket(std::string& out, bool first, const char* bounds, int64_t a, int64_t b,
                        uint64_t count) {
  if (!first) out += ", ";
  out += '{';
  if (bounds[0] == 'x') {  // only a max
    out += "\"max\": ";
    append_number(out, a);
    out += ", ";
  } else if (bounds[0] == 'n') {  // only a min
    out += "\"min\": ";
    append_number(out, a);
    out += ", ";
  } else {
    out += "\"min\": ";
    append_number(out, a);
    out += ", \"max\": ";
    append_number(out, b);
    out += ", ";
  }
  out += "\"count\": ";
  append_number(out, count);
  out += '}';
}

}  // namespace

void append_hist(std::string& out, OutputFormat format, const uint64_t* buckets, uint32_t count,
                 uint32_t div) {
  if (div == 0) div = 1;
  int min_index = -1, max_index = -1;
  for (uint32_t i = 0; i < count; i++) {
    if (int(buckets[i]) > 0) {
      if (min_index == -1) min_index = int(i);
      max_index = int(i);
    }
  }
  bool json = format == OutputFormat::Json;
  if (max_index == -1) {
    if (json) out += "[]";
    return;
  }
  int max_value = max_as_int(buckets, count);
  if (json) out += '[';
  for (int i = min_index; i <= max_index; i++) {
    uint64_t shown = buckets[i] / div;
    if (json) {
      bool first = i == min_index;
      if (i == 0) append_json_bucket(out, first, "x", -1, 0, shown);
      else if (i == 1) append_json_bucket(out, first, "mm", 0, 0, shown);
      else if (i == 2) append_json_bucket(out, first, "mm", 1, 1, shown);
      else
        append_json_bucket(out, first, "mm", int64_t(1ULL << (i - 2)),
                           int64_t((1ULL << (i - 1)) - 1), shown);
      continue;
    }
    std::string label = i == 0   ? "(..., 0)"
                        : i == 1 ? "[0]"
                        : i == 2 ? "[1]"
                                 : "[" + hist_label(i - 2) + ", " + hist_label(i - 1) + ")";
    append_bar_line(out, label, shown, buckets[i], max_value);
  }
  if (json) out += ']';
}

void append_lhist(std::string& out, OutputFormat format, const uint64_t* buckets,
                  uint32_t count, int64_t min, int64_t max, int64_t step) {
  bool json = format == OutputFormat::Json;
  int last = int(lhist_bucket_count(min, max, step)) - 1;
  int start = -1, end = 0;
  for (int i = 0; i <= last && i < int(count); i++) {
    if (buckets[i] > 0) {
      if (start == -1) start = i;
      end = i;
    }
  }
  if (start == -1) {
    if (json) out += "[]";
    return;
  }
  int max_value = max_as_int(buckets, count);
  if (json) out += '[';
  for (int i = start; i <= end; i++) {
    if (json) {
      bool first = i == start;
      if (i == 0) append_json_bucket(out, first, "x", min - 1, 0, buckets[i]);
      else if (i == last) append_json_bucket(out, first, "n", max, 0, buckets[i]);
      else
        append_json_bucket(out, first, "mm", (i - 1) * step + min, i * step + min - 1,
                           buckets[i]);
      continue;
    }
    std::string label = i == 0      ? "(..., " + lhist_label(min) + ")"
                        : i == last ? "[" + lhist_label(max) + ", ...)"
                                    : "[" + lhist_label((i - 1) * step + min) + ", " +
                                          lhist_label(i * step + min) + ")";
    append_bar_line(out, label, buckets[i], buckets[i], max_value);
  }
  if (json) out += ']';
}

}  // namespace rawprobe
