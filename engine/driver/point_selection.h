// Which of a script's expanded probes a run attaches: --test and --bench pick the test: or
// bench: blocks (and an ordinary run leaves those out), then --probe-filter keeps the probes
// whose full name its regex matches. BEGIN, END and self are never filtered out, as in
// bpftrace 0.26.1, whose filter works on its probe list and leaves those special probes be.
// A block whose points are all left out compiles to nothing (codegen skips empty blocks).
#pragma once
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/driver/options.h"
#include "engine/probes/provider.h"

namespace rawprobe::driver {

struct PointSelection {
  BlockSet blocks = BlockSet::Ordinary;
  const std::string* filter = nullptr;  // --probe-filter's regex; null when not given
};

// Drops, in place, the points the selection leaves out. Errors: a regex that does not
// compile, a filter that keeps none of the filterable probes, and --test / --bench with no
// block of that kind left.
Status select_points(std::vector<std::vector<probes::AttachPoint>>& points, const PointSelection& selection);

}  // namespace rawprobe::driver
