// One script map's entries, as read at scrape or print time (ScriptMaps::read), written as its
// metric family (map_metrics.h names it). Values are folded over CPUs by output's reduce_value,
// the same rule printing uses.
//   count()                   counter  NAME_total
//   sum, min, max, avg, @x=N  gauge    NAME
//   stats()                   summary  NAME_count, NAME_sum; gauge NAME_average
//   hist(), lhist()           histogram: cumulative NAME_bucket{le="..."}, NAME_count
//   @x = "text"               gauge    NAME{value="text"} 1
// A histogram's buckets are its integer ranges' upper ends (hist: 2^k - 1, lhist: min +
// k*step - 1, values below the lowest as le="min-1"); those between the lowest and the highest
// bucket any entry of the map has counted are written, then "+Inf".
#pragma once
#include <string>

#include "engine/metrics/exposition.h"
#include "engine/metrics/map_metrics.h"
#include "engine/output/map_print.h"

namespace rawprobe::metrics {

void append_map_family(ExpositionWriter& writer, const MapMetric& metric, const MapDesc& desc,
                       const MapEntries& entries);

// The le bound of bucket `b` of a hist (kHistBuckets) or lhist; false for the last lhist bucket,
// whose values reach up without bound (+Inf).
bool bucket_upper_bound(const MapDesc& desc, uint32_t b, int64_t& le);

}  // namespace rawprobe::metrics
