// Reading a count back from the maps rawprobe prints at exit.
#pragma once
#include <regex>
#include <string>

namespace rawprobe::cli_test {

// The number a map line prints: "@calls: 21" -> 21 for `map` "@calls" (a regex, so
// "@calls\\[uprobe:/bin/x:bar\\]" names one key); -1 when there is no such line.
inline long printed_count(const std::string& out, const std::string& map) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(map + ": (\\d+)"))) return -1;
  return std::stol(m[1]);
}

}  // namespace rawprobe::cli_test
