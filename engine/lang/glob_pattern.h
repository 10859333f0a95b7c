// globmatch()'s pattern, compiled when the script is checked: a list of tokens, each `*` or a
// set of bytes that one character must be in (a literal byte is a set of one, `?` every byte).
// The syntax is fnmatch(3)'s with no flags, which is what bpftrace 0.26.1's docs/stdlib.md
// describes (`*`, `?`, `[abc]`, `[a-z]`, `[!abc]`, the whole string, `/` not special), plus
// what fnmatch adds and the docs leave unsaid: `[^abc]` negates too, `]` first in a set is a
// member, `\` quotes the next byte, and a `[` with no closing `]` is a literal `[`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rawprobe::lang {

struct GlobToken {
  bool star = false;                                    // `*`: any run of bytes, empty too
  std::vector<std::pair<uint8_t, uint8_t>> ranges;      // inclusive byte ranges
  bool negated = false;                                 // `[!...]`: a byte in none of them
};

struct GlobPattern {
  std::vector<GlobToken> tokens;  // runs of `*` are one token
  std::string error;              // non-empty: what is wrong, and where in the pattern
};

GlobPattern parse_glob(std::string_view pattern);

}  // namespace rawprobe::lang
