// The memory budget of user symbol tables (symbols/symbol_cache.h), in bytes: the flag's
// value, else $RAWPROBE_SYMBOL_CACHE_MB, else the default.
#pragma once
#include <cstddef>

#include "engine/base/result.h"

namespace rawprobe::runtime {

// `flag_mib`: --symbol-cache-mb, 0 when not given. A malformed environment value is an error.
Result<size_t> symbol_budget_bytes(size_t flag_mib);

}  // namespace rawprobe::runtime
