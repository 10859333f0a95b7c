#include "engine/lang/glob_pattern.h"

namespace rawprobe::lang {

namespace {

std::string at(size_t i) { return " (at byte " + std::to_string(i) + " of the pattern)"; }

// A bracket expression starting at pattern[open] == '['. Returns the index past its `]`, or
// 0 when it has none (the `[` is then a literal, as fnmatch takes it).
size_t parse_set(std::string_view p, size_t open, GlobToken& t, std::string& error) {
  size_t i = open + 1;
  if (i < p.size() && (p[i] == '!' || p[i] == '^')) {
    t.negated = true;
    ++i;
  }
  bool first = true;
  while (i < p.size()) {
    if (p[i] == ']' && !first) return i + 1;
    first = false;
    if (p[i] == '[' && i + 1 < p.size() && (p[i + 1] == ':' || p[i + 1] == '=' || p[i + 1] == '.')) {
      error = std::string("character class names such as [:alpha:], [=a=] and [.a.] are not supported") +
              at(i) + ": list the bytes or ranges instead, as [a-zA-Z]";
      return 0;
    }
    auto byte = [&](size_t& k) -> int {  // one member byte, `\` quoting the next
      if (p[k] == '\\') {
        if (k + 1 >= p.size()) return -1;
        ++k;
      }
      return static_cast<uint8_t>(p[k++]);
    };
    size_t start = i;
    int lo = byte(i);
    if (lo < 0) return 0;
    int hi = lo;
    if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
      ++i;
      hi = byte(i);
      if (hi < 0) return 0;
      if (hi < lo) {
        error = "the range " + std::string(p.substr(start, i - start)) + " runs backwards" + at(start) +
                ": write its lower byte first";
        return 0;
      }
    }
    t.ranges.emplace_back(static_cast<uint8_t>(lo), static_cast<uint8_t>(hi));
  }
  return 0;  // no closing `]`
}

}  // namespace

GlobPattern parse_glob(std::string_view p) {
  GlobPattern out;
  for (size_t i = 0; i < p.size();) {
    GlobToken t;
    char c = p[i];
    if (c == '*') {
      while (i < p.size() && p[i] == '*') ++i;
      t.star = true;
    } else if (c == '?') {
      t.ranges.emplace_back(1, 255);  // any byte; the string's NUL ends it first
      ++i;
    } else if (c == '[') {
      size_t end = parse_set(p, i, t, out.error);
      if (!out.error.empty()) return out;
      if (end) {
        i = end;
      } else {  // unterminated: a literal `[`
        t = GlobToken{};
        t.ranges.emplace_back('[', '[');
        ++i;
      }
    } else if (c == '\\') {
      if (i + 1 >= p.size()) {
        out.error = "the pattern ends with a lone backslash" + at(i) + ": write \\\\ for a backslash";
        return out;
      }
      t.ranges.emplace_back(static_cast<uint8_t>(p[i + 1]), static_cast<uint8_t>(p[i + 1]));
      i += 2;
    } else {
      t.ranges.emplace_back(static_cast<uint8_t>(c), static_cast<uint8_t>(c));
      ++i;
    }
    out.tokens.push_back(std::move(t));
  }
  return out;
}

}  // namespace rawprobe::lang
