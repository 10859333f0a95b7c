// How the semantic pass lays out a checked map (engine/base/map_layout.h says what each
// field means).
#pragma once
#include <vector>

#include "engine/base/map_layout.h"
#include "engine/base/types.h"

namespace rawprobe::lang {

MapLayout plan_map_layout(const std::vector<Type>& key, const Type& value, const LHistParams& lhist);

}  // namespace rawprobe::lang
