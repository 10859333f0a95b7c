// Folded stacks, the input of flame graph tools (Brendan Gregg's flamegraph.pl, speedscope,
// inferno): one line per stack, its frames root first joined by ';', a space, its count:
//   stk_fun;main;fun;foo;bar 8092
// A key's other parts (comm, pid, ...) come first, as the roots of their stacks, the way
// stackcollapse-perf.pl puts the process name first.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/types.h"

namespace rawprobe {

// The key of one entry as a folded line's frames. The parts marked in `stack_parts` hold
// their stack's folded text already (runtime/stack_text.h); the others print as in text keys.
void append_folded_key(std::string& out, const std::vector<Type>& parts, const std::vector<uint32_t>& offsets,
                       const std::vector<bool>& stack_parts, const uint8_t* key);

}  // namespace rawprobe
