// -f openmetrics|prometheus: the maps print as a metrics exposition wherever text output
// prints them (at exit, print(@m), intervals), while printf and the rest stay text.
//   without -o   each flush that printed maps writes their families to stdout (OpenMetrics:
//                followed by "# EOF"), after the text of the same batch of events
//   with -o FILE each such flush writes every map printed so far, each as last printed, to
//                FILE.tmp and renames it over FILE: a reader (node_exporter's textfile
//                collector) sees the whole old file or the whole new one, never half of one
#pragma once
#include <map>
#include <string>

#include "engine/base/result.h"
#include "engine/metrics/exposition.h"
#include "engine/metrics/map_metrics.h"
#include "engine/output/output.h"

namespace rawprobe::metrics {

class ExpositionSink : public MapSink {
 public:
  // `plan` must outlive the sink. `path` empty: stdout.
  ExpositionSink(const MetricsPlan& plan, const std::vector<std::string>& map_names, ExpositionFormat format,
                 std::string path);

  void map(const MapDesc& map, const MapEntries& entries) override;
  Status flush() override;

 private:
  const MetricsPlan& plan_;
  std::map<std::string, size_t> index_;   // "@name" -> its MapMetric
  ExpositionFormat format_;
  std::string path_;
  std::map<std::string, std::string> latest_;  // "@name" -> its families as last printed
  std::string batch_;                          // stdout: families printed since the last flush
  bool changed_ = false;
};

// Writes `text` to `path` through PATH.tmp and rename(): readers never see a partial file.
Status replace_file(const std::string& path, const std::string& text);

}  // namespace rawprobe::metrics
