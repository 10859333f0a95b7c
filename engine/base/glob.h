// Shell-style name matching where * matches any run of characters and ? any one character:
// symbol and USDT names (elf/), probe listings and wildcards (engine/). Paths with [...] and
// per-component rules are engine/probes/path_glob.h's.
#pragma once
#include <string_view>

namespace rawprobe {

bool glob_match(std::string_view pattern, std::string_view text);

}  // namespace rawprobe
