#include "engine/base/cpu_list.h"

#include <charconv>
#include <string>

namespace rawprobe {
namespace {

bool parse_int(std::string_view text, int& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

}  // namespace

Result<std::vector<int>> parse_cpu_list(std::string_view text) {
  std::vector<int> cpus;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  size_t start = 0;
  while (start < text.size()) {
    size_t comma = text.find(',', start);
    std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    size_t dash = item.find('-');
    int first, last;
    bool ok = dash == std::string_view::npos
                  ? parse_int(item, first) && ((last = first), true)
                  : parse_int(item.substr(0, dash), first) && parse_int(item.substr(dash + 1), last);
    if (!ok || last < first)
      return make_error("malformed CPU list '" + std::string(text) + "'", std::string(item));
    for (int c = first; c <= last; ++c) cpus.push_back(c);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (cpus.empty()) return make_error("empty CPU list");
  return cpus;
}

}  // namespace rawprobe
