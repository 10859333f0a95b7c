// README.md's example blocks, as tests/kernel/readme_commands_test.cpp and
// tests/vm/guest.d/readme-commands.sh read them. The convention, also in README.md's own
// "Tests" section:
//   - A fenced block whose first line starts with "# " is an example: each "# CMD" line is a
//     shell command (run from the source tree, with the build's rawprobe and bpfasm first on
//     PATH, stderr merged into stdout) and the lines under it, up to the next "# " line or the
//     fence, are its output. Trailing blank lines of both are ignored. Commands run in the
//     README's order, so one may use a file an earlier one built (/tmp/libvis*.so).
//   - An output line "..." stands for any number of lines (zero included).
//   - `<!-- readme-test: OPTIONS -->` on the line just before the fence sets, space separated:
//       numbers    every decimal number and 0x number may differ (pids, tids, times, fds,
//                  addresses, counts of a system-wide run): each becomes N before comparing,
//                  and each run of blanks one blank, since a column padded to a width gets
//                  one blank fewer when its number grows a digit ("40             " and
//                  "101            " in --bench's table)
//       numbers:P  the same, only on lines that start with P (e.g. numbers:pid masks the
//                  sample's "pid 4242" line and nothing else)
//       sorted     the lines may come in another order (two processes writing, thread order)
//       status=N   every command of the block exits with N (default 0)
//       vm         needs kprobes or a hardware PMU: run in the VM guest, not on this host
//       host       with vm: run on this host as well
//       arch=M     only where `uname -m` is M (the arm64 guests have a PMU, x86_64's have none)
//       kconfig=C  with vm: only on a guest kernel whose config sets C (fentry needs
//                  CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS, which arm64's 6.1 lacks)
//       skip       not run (say why in the text around it)
// Nothing else is masked: an output that changes for any other reason fails the test.
#pragma once
#include <algorithm>
#include <regex>
#include <sys/utsname.h>
#include <sstream>
#include <string>
#include <vector>

namespace rawprobe::readme {

struct Command {
  std::string line;      // without the leading "# "
  std::vector<std::string> output;
};

struct Block {
  std::string options;   // the directive's text, "" when there is none
  std::vector<std::string> lines;  // between the fences
  std::vector<Command> commands;
  bool has(const std::string& option) const {
    return (" " + options + " ").find(" " + option + " ") != std::string::npos;
  }
  bool other_arch() const {
    std::smatch m;
    if (!std::regex_search(options, m, std::regex("arch=([a-z0-9_]+)"))) return false;
    utsname u{};
    return uname(&u) == 0 && m[1] != u.machine;
  }
  int status() const {
    std::smatch m;
    return std::regex_search(options, m, std::regex("status=([0-9]+)")) ? std::stoi(m[1]) : 0;
  }
};

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return lines;
}

// Every example block of a markdown text (blocks whose first line is not "# ..." are left out).
inline std::vector<Block> example_blocks(const std::string& markdown) {
  static const std::regex directive("^<!-- readme-test: *(.*[^ ]) *-->$");
  std::vector<Block> blocks;
  std::vector<std::string> lines = split_lines(markdown);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("```", 0) != 0) continue;
    Block b;
    std::smatch m;
    if (i > 0 && std::regex_match(lines[i - 1], m, directive)) b.options = m[1];
    size_t j = i + 1;
    for (; j < lines.size() && lines[j] != "```"; ++j) b.lines.push_back(lines[j]);
    i = j;
    if (b.lines.empty() || b.lines[0].rfind("# ", 0) != 0) continue;
    for (const std::string& l : b.lines) {
      if (l.rfind("# ", 0) == 0) b.commands.push_back({l.substr(2), {}});
      else b.commands.back().output.push_back(l);
    }
    blocks.push_back(b);
  }
  return blocks;
}

// The README's rule: `expected` (with "..." lines) against `actual`, under the block's options.
inline bool output_matches(std::vector<std::string> expected, std::vector<std::string> actual, const Block& b) {
  static const std::regex number("0x[0-9a-fA-F]+|[0-9]+"), blanks("  +");
  std::vector<std::string> prefixes;  // lines whose numbers are masked ("" = every line)
  {
    std::istringstream words(b.options);
    for (std::string w; words >> w;) {
      if (w == "numbers") prefixes.push_back("");
      else if (w.rfind("numbers:", 0) == 0) prefixes.push_back(w.substr(8));
    }
  }
  for (auto* v : {&expected, &actual}) {
    for (std::string& l : *v)
      for (const std::string& p : prefixes)
        if (l.rfind(p, 0) == 0) l = std::regex_replace(std::regex_replace(l, number, "N"), blanks, " ");
    while (!v->empty() && v->back().empty()) v->pop_back();
  }
  if (b.has("sorted")) {
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    return expected == actual;
  }
  // Segments between "..." lines, found in order; the first is anchored at the start unless a
  // "..." comes before it, the last at the end unless a "..." comes after it.
  size_t i = 0, pos = 0;
  bool anchored = true;
  while (i < expected.size()) {
    if (expected[i] == "...") {
      anchored = false;
      ++i;
      continue;
    }
    size_t j = i;
    while (j < expected.size() && expected[j] != "...") ++j;
    size_t len = j - i;
    if (actual.size() < len) return false;
    size_t first = pos, last = anchored ? pos : actual.size() - len;
    if (j == expected.size() && !anchored) first = last;
    bool found = false;
    for (size_t s = first; s <= last && s + len <= actual.size() && !found; ++s) {
      if (std::equal(expected.begin() + long(i), expected.begin() + long(j), actual.begin() + long(s))) {
        found = true;
        pos = s + len;
      }
    }
    if (!found) return false;
    anchored = true;
    i = j;
  }
  return !anchored || pos == actual.size();
}

}  // namespace rawprobe::readme
