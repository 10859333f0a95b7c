#include "engine/metrics/metrics_run.h"

#include <cstdio>

#include "engine/metrics/map_families.h"

namespace rawprobe::metrics {

bool is_exposition(OutputFormat format) {
  return format == OutputFormat::OpenMetrics || format == OutputFormat::Prometheus;
}

Result<std::unique_ptr<MetricsRun>> MetricsRun::start(const MetricsConfig& config, const lang::CheckedProgram& program,
                                                      const lang::SourceFile& source) {
  if (config.address.empty() && !is_exposition(config.format)) return std::unique_ptr<MetricsRun>();
  std::unique_ptr<MetricsRun> run(new MetricsRun());
  run->config_ = config;
  run->plan_ = plan_metrics(program.ast, program.info, source, config.prefix);
  for (const lang::MapInfo& m : program.info.maps) run->map_names_.push_back(m.name);
  for (const std::string& w : run->plan_.warnings) std::fprintf(stderr, "rawprobe: warning: %s\n", w.c_str());
  if (!config.address.empty()) {
    Result<ListenAddress> address = parse_listen_address(config.address);
    if (!address) return address.error();
    Result<std::unique_ptr<MetricsServer>> server = MetricsServer::open(*address);
    if (!server) return server.error();
    run->server_ = std::move(*server);
    std::fprintf(stderr, "rawprobe: serving metrics at http://%s/metrics\n", run->server_->address().c_str());
  }
  return run;
}

MetricsRun::~MetricsRun() = default;

void MetricsRun::connect(const runtime::ScriptMaps& maps, Output& out) {
  maps_ = &maps;
  if (server_) server_->set_render([this](ExpositionFormat format) { return render(format); });
  if (!is_exposition(config_.format)) return;
  ExpositionFormat format =
      config_.format == OutputFormat::OpenMetrics ? ExpositionFormat::OpenMetrics : ExpositionFormat::Prometheus;
  sink_.emplace(plan_, map_names_, format, config_.output_file);
  out.set_map_sink(&*sink_);
}

std::string MetricsRun::render(ExpositionFormat format) const {
  std::string text;
  ExpositionWriter writer(text, format);
  for (size_t u : maps_->user_maps_by_name()) {
    Result<MapEntries> entries = maps_->read(u);
    if (!entries) continue;  // a map that cannot be read now is left out of this scrape
    append_map_family(writer, plan_.maps[u], maps_->desc(u), *entries);
  }
  writer.finish();
  return text;
}

}  // namespace rawprobe::metrics
