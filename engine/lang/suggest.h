// The front end's name for the suggestions in engine/base/suggest.h.
#pragma once
#include "engine/base/suggest.h"

namespace rawprobe::lang {

using rawprobe::closest_names;
using rawprobe::did_you_mean;
using rawprobe::edit_distance;

}  // namespace rawprobe::lang
