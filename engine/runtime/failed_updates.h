// The warnings for map updates the programs counted as failed (`.mapfail`,
// engine/codegen/compiled_script.h), printed once at exit: a full hash map must not lose keys
// without a word.
#pragma once
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/codegen/compiled_script.h"
#include "engine/lang/program_info.h"
#include "engine/runtime/script_maps.h"

namespace rawprobe::runtime {

// One line per user map with failed updates, in bpftrace's exit order (by name):
//   WARNING: Failed to map_update_elem 904 times for @m, which holds at most 4096 keys
// and first, the stacks bpf_get_stackid could not store (`.stacklost`).
Result<std::vector<std::string>> failed_update_warnings(const codegen::CompiledScript& script,
                                                        const lang::ProgramInfo& info, const ScriptMaps& maps);

}  // namespace rawprobe::runtime
