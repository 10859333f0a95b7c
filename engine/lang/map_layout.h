// How the semantic pass lays out a checked map (engine/base/map_layout.h says what each
// field means).
#pragma once
#include <vector>

#include "engine/base/map_layout.h"
#include "engine/base/types.h"
#include "engine/lang/program_info.h"

namespace rawprobe::lang {

MapLayout plan_map_layout(const std::vector<Type>& key, const Type& value, const LHistParams& lhist);

// Gives every hist() and lhist() map a sum of its values after the buckets (MapLayout::hist_sum),
// for a run that serves them as metrics: a Prometheus histogram has a _sum.
void keep_hist_sums(ProgramInfo& info);

}  // namespace rawprobe::lang
