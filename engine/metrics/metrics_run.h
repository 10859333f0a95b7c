// What --metrics ADDR and -f openmetrics|prometheus add to a run, in the order the run needs:
//   start()    before anything is attached: plans the metric names (warning about maps that
//              cannot be served) and binds the endpoint, so a bad or busy address stops the
//              run while there is nothing to undo
//   connect()  once the maps and the output exist: scrapes read the maps, and exposition
//              formats send printed maps to an ExpositionSink
//   service()  the endpoint, for the event loop
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "engine/base/result.h"
#include "engine/lang/program_info.h"
#include "engine/lang/source.h"
#include "engine/metrics/exposition_sink.h"
#include "engine/metrics/map_metrics.h"
#include "engine/metrics/metrics_server.h"
#include "engine/output/output.h"
#include "engine/runtime/script_maps.h"

namespace rawprobe::metrics {

struct MetricsConfig {
  std::string address;       // --metrics; empty: no endpoint
  std::string prefix;        // --metrics-prefix
  OutputFormat format = OutputFormat::Text;
  std::string output_file;   // -o
};

bool is_exposition(OutputFormat format);

class MetricsRun {
 public:
  // Null (and no error) when the run uses neither --metrics nor an exposition format.
  static Result<std::unique_ptr<MetricsRun>> start(const MetricsConfig& config, const lang::CheckedProgram& program,
                                                   const lang::SourceFile& source);
  ~MetricsRun();

  // `maps` must outlive this object, and this object must outlive `out` (whose last flush,
  // when it goes, still writes to the sink).
  void connect(const runtime::ScriptMaps& maps, Output& out);
  runtime::LoopService* service() { return server_.get(); }

  // Every served map, read now, as one exposition.
  std::string render(ExpositionFormat format) const;

 private:
  MetricsRun() = default;

  MetricsConfig config_;
  MetricsPlan plan_;
  std::vector<std::string> map_names_;
  std::unique_ptr<MetricsServer> server_;
  std::optional<ExpositionSink> sink_;
  const runtime::ScriptMaps* maps_ = nullptr;
};

}  // namespace rawprobe::metrics
