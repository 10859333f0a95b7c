// Printing a tseries() map as bpftrace 0.26.1 does (docs/stdlib.md, "tseries", whose examples
// show the text; src/output/text.cpp draws it): per key, the last num_intervals intervals up to
// the latest one any key recorded, oldest first, each as its wall-clock start, a point on a
// 53-column scale from the smallest to the largest value shown, and the value ("-" for an
// interval without one).
#pragma once
#include <string>

#include "engine/output/map_print.h"

namespace rawprobe {

void append_tseries_map(std::string& out, OutputFormat format, const MapDesc& map, const MapEntries& entries);

}  // namespace rawprobe
