#include "engine/base/glob.h"

namespace rawprobe {

bool glob_match(std::string_view p, std::string_view t) {
  size_t pi = 0, ti = 0, star = std::string_view::npos, resume = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
      ++pi;
      ++ti;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      // A trailing * takes whatever is left: "*" and "prefix*" (the common -l and wildcard
      // patterns) end here instead of walking each of ~50,000 names to its end.
      if (pi == p.size()) return true;
      resume = ti;
    } else if (star != std::string_view::npos) {
      // Let the last * swallow one more character and retry from there.
      pi = star + 1;
      ti = ++resume;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

}  // namespace rawprobe
