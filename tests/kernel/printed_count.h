// Reading counts back from what rawprobe prints: its maps at exit, its lost-event lines.
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

// The events rawprobe says it lost: the sum of its "Lost N events" lines.
inline long reported_losses(const std::string& text) {
  long total = 0;
  std::regex line("(^|\n)Lost ([0-9]+) events\n");
  for (std::sregex_iterator it(text.begin(), text.end(), line), end; it != end; ++it) total += std::stol((*it)[2]);
  return total;
}

}  // namespace rawprobe::cli_test
