#include "engine/lang/suggest.h"

#include <algorithm>

namespace rawprobe::lang {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> closest_names(std::string_view word, const std::vector<std::string>& candidates) {
  size_t limit = std::max<size_t>(1, word.size() / 3);
  size_t best = limit + 1;
  std::vector<std::string> out;
  for (const std::string& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best) {
      best = d;
      out.clear();
    }
    if (d == best && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  std::vector<std::string> close = closest_names(word, candidates);
  if (close.empty()) return "";
  std::string s = "; did you mean '" + close[0] + "'";
  for (size_t i = 1; i < close.size() && i < 3; ++i) s += (i + 1 == close.size() || i == 2 ? " or '" : ", '") + close[i] + "'";
  return s + "?";
}

}  // namespace rawprobe::lang
