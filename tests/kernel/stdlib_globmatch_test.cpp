// globmatch(str, pattern) of bpftrace 0.26.1's docs/stdlib.md, run for real: the strings are
// the file names a child process opens (seen by tracepoint:syscalls:sys_enter_openat) and its
// comm, and the expected answer for every string and pattern is glibc's fnmatch(pattern,
// string, 0), the glob matcher whose syntax the docs describe (the whole string, `/` and a
// leading `.` not special). Where rawprobe knowingly differs from fnmatch, it refuses the
// pattern when the script is checked (tests/unit/lang_globmatch_test.cpp).
#include <doctest/doctest.h>

#include <fnmatch.h>
#include <unistd.h>

#include <map>
#include <set>
#include <sstream>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

// `text` as a script string literal.
std::string script_literal(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

struct Seen {
  int pattern = 0;
  bool matched = false;
  std::string text;
};

// Lines "KIND|INDEX|MATCHED|TEXT" of a run; TEXT is last, so it may hold '|'.
std::vector<std::pair<char, Seen>> records_of(const std::string& out) {
  std::vector<std::pair<char, Seen>> records;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (line.size() < 2 || (line[0] != 'F' && line[0] != 'C') || line[1] != '|') continue;
    size_t a = line.find('|', 2), b = line.find('|', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    Seen s;
    s.pattern = std::stoi(line.substr(2, a - 2));
    s.matched = line.substr(a + 1, b - a - 1) == "1";
    s.text = line.substr(b + 1);
    records.emplace_back(line[0], s);
  }
  return records;
}

}  // namespace

TEST_CASE("globmatch answers as fnmatch(3) for the file names a process opens and for its comm") {
  const std::string dir = "/tmp/rawprobe_globmatch_" + std::to_string(getpid()) + "_absent";
  const std::vector<std::string> names = {
      dir + "/abc.txt",
      dir + "/a[b]c?d*e",
      dir + "/x-y-z.tar.gz",
      dir + "/caf\xc3\xa9.log",
      dir + "/.hidden",
      dir + "/dir/",
      "rel.txt",
      "rel.tx",
      "]bracket]",
      "qa[b",
      dir + "/libx.so.6",
      // Longer than max_strlen's 64 bytes: str() keeps the first 63, and that is what is matched.
      dir + "/long_" + std::string(80, 'n') + ".txt",
  };
  const std::vector<std::string> patterns = {
      "*",
      "*.txt",
      "/tmp/*",
      "/tmp/rawprobe_globmatch_*_absent/?bc.txt",
      "*a?c*",
      "*[0-9]*",
      "*[!a-zA-Z0-9/._-]*",
      "*[^/]",
      "*/",
      "*[]x]*",
      "*\\**",
      "*\\[b]*",
      "*[[]*",
      "*a[b",
      "[]]*",
      "*.[a-z][a-z]",
      "*-*-*",
      "*e*e*",
      "*/.*",
      "rel.txt",
      "rel.tx",
      "?el.txt*",
      "*.so*",
      "*n",
      "*nn",
      "ca?",
      "*a[bc]*",
      "*[a-cx-z].*",
      "?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?*?",
      "*\xc3\xa9*",
  };
  std::string child = "/bin/cat";
  for (const std::string& n : names) child += " " + n;
  // Each match is unrolled over the string's bytes, so the patterns are spread over several
  // programs on the same tracepoint, each within a jump's 16-bit reach.
  std::string script;
  for (size_t i = 0; i < patterns.size(); ++i) {
    if (i % 5 == 0) script += "tracepoint:syscalls:sys_enter_openat /pid == cpid/ { $f = str(args.filename);";
    std::string p = script_literal(patterns[i]);
    script += " printf(\"F|" + std::to_string(i) + "|%d|%s\\n\", globmatch($f, " + p + "), $f);";
    script += " printf(\"C|" + std::to_string(i) + "|%d|%s\\n\", globmatch(comm, " + p + "), comm);";
    if (i % 5 == 4 || i + 1 == patterns.size()) script += " }\n";
  }
  RunResult r = run_rawprobe({"-c", child, "-e", script}, 120);
  INFO(r.err);
  REQUIRE(r.status == 0);

  std::set<std::string> files;
  std::map<int, std::set<bool>> outcomes;  // every answer each pattern gave
  size_t checked = 0;
  for (const auto& [kind, s] : records_of(r.out)) {
    REQUIRE(s.pattern < static_cast<int>(patterns.size()));
    const std::string& pat = patterns[s.pattern];
    bool expected = fnmatch(pat.c_str(), s.text.c_str(), 0) == 0;
    CHECK_MESSAGE(s.matched == expected, "globmatch(\"" << s.text << "\", \"" << pat << "\") gave " << s.matched);
    if (kind == 'F') files.insert(s.text);
    if (kind == 'C') CHECK(s.text == "cat");
    outcomes[s.pattern].insert(s.matched);
    ++checked;
  }
  // Every name the child opened was seen (the long one cut short by str()), with every pattern.
  for (const std::string& n : names) {
    bool seen = files.count(n) > 0;
    for (const std::string& f : files)
      if (!seen && f.size() < n.size() && n.compare(0, f.size(), f) == 0 && f.size() > dir.size()) seen = true;
    CHECK_MESSAGE(seen, n);
  }
  CHECK(checked >= 2 * names.size() * patterns.size());
  // Each pattern but `*` (which matches every string) both matched and missed some string, so
  // no answer passes by being constant.
  for (size_t i = 0; i < patterns.size(); ++i)
    if (patterns[i] != "*") CHECK_MESSAGE(outcomes[i].size() == 2, patterns[i]);
}
