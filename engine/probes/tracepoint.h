// tracepoint:CATEGORY:NAME on the running kernel's tracefs: the names come from
// available_events (what the kernel offers for attaching; bpftrace reads the same file),
// the record layout from events/CATEGORY/NAME/format.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "engine/lang/tracepoint_format.h"

namespace rawprobe::probes {

// Every tracepoint as (category, name), in available_events order.
Result<std::vector<std::pair<std::string, std::string>>> all_tracepoints();

// lang's catalog interface on the real tracefs, for the semantic pass (args->field).
class TracefsCatalog final : public lang::TracepointCatalog {
 public:
  Result<std::vector<std::pair<std::string, std::string>>> match(const std::string& category,
                                                                 const std::string& name) override;
  Result<std::vector<lang::TracepointField>> fields(const std::string& category,
                                                    const std::string& name) override;
};

// Tracepoint names close to `category:name`, for "not found" hints: the closest full names,
// else those of the same category closest by name.
std::vector<std::string> close_tracepoints(const std::string& category, const std::string& name);

}  // namespace rawprobe::probes
