// Writing metric families in the two text forms Prometheus scrapes:
//   Prometheus text format 0.0.4 (Content-Type text/plain; version=0.0.4)
//   OpenMetrics 1.0 text (application/openmetrics-text; version=1.0.0)
// They differ where this writer hides it: a counter's family is named with "_total" in 0.0.4
// and without it in OpenMetrics (its sample is NAME_total in both); OpenMetrics escapes '"' in
// HELP and ends with "# EOF".
//
//   # HELP rawprobe_calls -e:1: uprobe:/tmp/fun:bar { @calls[comm] = count(); }
//   # TYPE rawprobe_calls counter                    (0.0.4: rawprobe_calls_total counter)
//   rawprobe_calls_total{comm="fun"} 3
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace rawprobe::metrics {

enum class ExpositionFormat { Prometheus, OpenMetrics };
enum class MetricType { Counter, Gauge, Histogram, Summary };

// The Content-Type header of a format.
const char* content_type(ExpositionFormat format);

// Appends `value` as a label value: backslash, double quote and newline escaped.
void append_label_value(std::string& out, std::string_view value);

class ExpositionWriter {
 public:
  ExpositionWriter(std::string& out, ExpositionFormat format) : out_(out), format_(format) {}

  // Starts a family. `name` is the base name (a counter's without "_total").
  void family(std::string_view name, MetricType type, std::string_view help);
  // One sample of the current family: NAME SUFFIX {LABELS[,EXTRA]} VALUE. `labels` and
  // `extra` are already written label pairs (name="escaped"), either may be empty.
  void sample(std::string_view suffix, std::string_view labels, std::string_view extra, uint64_t value);
  void sample(std::string_view suffix, std::string_view labels, std::string_view extra, int64_t value);
  // Ends the exposition (OpenMetrics: "# EOF").
  void finish();

 private:
  void sample_head(std::string_view suffix, std::string_view labels, std::string_view extra);

  std::string& out_;
  ExpositionFormat format_;
  std::string name_;
};

}  // namespace rawprobe::metrics
