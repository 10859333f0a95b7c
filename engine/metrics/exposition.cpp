#include "engine/metrics/exposition.h"

#include "engine/output/number_text.h"

namespace rawprobe::metrics {
namespace {

const char* type_word(MetricType type) {
  switch (type) {
    case MetricType::Counter: return "counter";
    case MetricType::Gauge: return "gauge";
    case MetricType::Histogram: return "histogram";
    case MetricType::Summary: return "summary";
  }
  return "unknown";
}

// HELP text: backslash and newline escaped in both formats, '"' too in OpenMetrics.
void append_help(std::string& out, std::string_view help, bool quote) {
  for (char c : help) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '"' && quote) out += "\\\"";
    else out += c;
  }
}

}  // namespace

const char* content_type(ExpositionFormat format) {
  return format == ExpositionFormat::OpenMetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                                 : "text/plain; version=0.0.4; charset=utf-8";
}

void append_label_value(std::string& out, std::string_view value) {
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
}

void ExpositionWriter::family(std::string_view name, MetricType type, std::string_view help) {
  name_ = name;
  bool om = format_ == ExpositionFormat::OpenMetrics;
  std::string_view family_suffix = !om && type == MetricType::Counter ? "_total" : "";
  out_ += "# HELP ";
  out_ += name;
  out_ += family_suffix;
  out_ += ' ';
  append_help(out_, help, om);
  out_ += "\n# TYPE ";
  out_ += name;
  out_ += family_suffix;
  out_ += ' ';
  out_ += type_word(type);
  out_ += '\n';
}

void ExpositionWriter::sample_head(std::string_view suffix, std::string_view labels, std::string_view extra) {
  out_ += name_;
  out_ += suffix;
  if (!labels.empty() || !extra.empty()) {
    out_ += '{';
    out_ += labels;
    if (!labels.empty() && !extra.empty()) out_ += ',';
    out_ += extra;
    out_ += '}';
  }
  out_ += ' ';
}

void ExpositionWriter::sample(std::string_view suffix, std::string_view labels, std::string_view extra,
                              uint64_t value) {
  sample_head(suffix, labels, extra);
  append_number(out_, value);
  out_ += '\n';
}

void ExpositionWriter::sample(std::string_view suffix, std::string_view labels, std::string_view extra,
                              int64_t value) {
  sample_head(suffix, labels, extra);
  append_number(out_, value);
  out_ += '\n';
}

void ExpositionWriter::finish() {
  if (format_ == ExpositionFormat::OpenMetrics) out_ += "# EOF\n";
}

}  // namespace rawprobe::metrics
