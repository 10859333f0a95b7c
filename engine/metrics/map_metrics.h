// Which metric family each script map becomes, decided once before the run starts.
//
//   @calls[comm, $size] = count();   ->  rawprobe_calls_total{comm="...",size="..."}
//
// Names: PREFIX_NAME, with characters outside [a-zA-Z0-9_:] written as '_' (the anonymous map
// @ is PREFIX alone). Labels: a key part written as a plain builtin (comm, pid, arg0, ...) or
// a scratch variable ($size) is named after it; any other key expression is keyN (its place,
// from 0). So a script names a label by putting the key in a variable of that name first:
//   $bytes = args->count; @reads[comm, $bytes] = count();
// A name the format reserves ("le" in a histogram, anything starting "__") or one already
// taken falls back to keyN too. HELP is the script line where the map is first assigned.
//
// A map whose key holds a part that has no text (a stack, a buffer, a symbol, a timestamp), or
// whose value is neither an aggregation, an integer nor a string, is not served; the plan says
// why in a warning printed at start.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "engine/lang/ast.h"
#include "engine/lang/program_info.h"
#include "engine/lang/source.h"

namespace rawprobe::metrics {

struct MapMetric {
  std::string name;                 // the family's base name: "rawprobe_calls"
  std::vector<std::string> labels;  // one per key part
  std::string value_label;          // string-valued maps: the label holding the value
  std::string help;                 // "FILE:LINE: the line"
  bool served = false;
};

struct MetricsPlan {
  std::vector<MapMetric> maps;        // indexed like ProgramInfo::maps
  std::vector<std::string> warnings;  // one line each, without "rawprobe: warning: "
};

inline constexpr std::string_view kDefaultPrefix = "rawprobe";

// Whether `prefix` is a metric name (the grammar [a-zA-Z_:][a-zA-Z0-9_:]*).
bool is_metric_name(std::string_view prefix);

MetricsPlan plan_metrics(const lang::Program& program, const lang::ProgramInfo& info,
                         const lang::SourceFile& source, std::string_view prefix);

}  // namespace rawprobe::metrics
