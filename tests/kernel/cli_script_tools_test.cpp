// bpftrace's own tools, read where they are installed (never copied here): Debian's bpftrace
// 0.17 package puts them in /usr/sbin/*.bt, and shared/corpus holds bpftrace 0.26.1's. Each
// runs unchanged through `rawprobe --dry-run`. None may stop at its "#!" line, a preprocessor
// directive or a numeric literal any more; a tool may still stop later (C types, stacks, ...),
// and the first error of each is printed so the remaining work shows in the test's output.
#include <doctest/doctest.h>

#include <cstdlib>

#include <dirent.h>

#include <algorithm>
#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe::cli_test;

namespace {

std::vector<std::string> tools_in(const std::string& dir) {
  std::vector<std::string> tools;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() > 3 && name.ends_with(".bt")) tools.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(tools.begin(), tools.end());
  return tools;
}

// The first line of a failed run that says what went wrong, and the source line under it.
struct FirstError {
  std::string message;  // "file:line:col: error: ..." or "rawprobe: ..."
  std::string line;     // the script line a positioned error shows
};

FirstError first_error(const std::string& err) {
  FirstError f;
  size_t at = err.find(": error: ");
  if (at == std::string::npos) {
    f.message = err.substr(0, err.find('\n'));
    return f;
  }
  size_t begin = err.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  size_t end = err.find('\n', at);
  f.message = err.substr(begin, end - begin);
  if (end != std::string::npos) f.line = err.substr(end + 1, err.find('\n', end + 1) - end - 1);
  return f;
}

// Whether a first error belongs to what this file guards: the "#!" line, directives and
// includes, macro expansion, numeric literals.
bool in_preprocessor_or_literals(const FirstError& e) {
  static const std::regex ours(
      R"(#include|#if|#else|#endif|#define|directive|macro '|of macro|macro name|macro parameter|header .* not found|)"
      R"(file .* not found|integer literal|scientific literal|character literal|octal|exponent|)"
      R"(unexpected character '#'|unexpected character '''|'#!')");
  std::string trimmed = e.line.substr(std::min(e.line.find_first_not_of(" \t"), e.line.size()));
  return trimmed.starts_with("#") || std::regex_search(e.message, ours);
}

struct Tally {
  int tools = 0, past_preprocessing = 0, loaded = 0;
};

Tally run_tools(const std::vector<std::string>& tools) {
  Tally t;
  for (const std::string& tool : tools) {
    RunResult r = run_rawprobe({"--dry-run", tool}, 120);
    ++t.tools;
    std::string name = tool.substr(tool.rfind('/') + 1);
    if (r.status == 0) {
      ++t.loaded;
      ++t.past_preprocessing;
      MESSAGE(name << ": loads");
      continue;
    }
    FirstError e = first_error(r.err);
    bool mine = in_preprocessor_or_literals(e);
    if (!mine) ++t.past_preprocessing;
    MESSAGE(name << ": " << e.message);
    CHECK_MESSAGE(!mine, name << " stops in the preprocessor or at a literal:\n" << r.err);
  }
  return t;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("bpftrace 0.17's tools in /usr/sbin get past the preprocessor and the literals") {
  std::vector<std::string> tools = tools_in("/usr/sbin");
  REQUIRE_MESSAGE(!tools.empty(), "the bpftrace package (tests/install-packages) installs /usr/sbin/*.bt");
  Tally t = run_tools(tools);
  MESSAGE("bpftrace 0.17 tools: " << t.past_preprocessing << " of " << t.tools << " past preprocessing, "
                                  << t.loaded << " load");
  CHECK(t.past_preprocessing == t.tools);
}

TEST_CASE("bpftrace 0.26.1's tools in shared/corpus get past the preprocessor and the literals") {
  // The corpus sits beside the project's checkout (../shared); a clean clone made elsewhere
  // (CI's /tmp/ci) finds it through RAWPROBE_CORPUS or the workspace's /work/shared.
  std::vector<std::string> tools;
  const char* from_env = std::getenv("RAWPROBE_CORPUS");
  for (std::string corpus : {std::string(from_env ? from_env : ""), source_root() + "/../shared/corpus",
                             std::string("/work/shared/corpus")}) {
    if (corpus.empty()) continue;
    tools = tools_in(corpus + "/bpftrace-v0.26.1/tools");
    if (!tools.empty()) break;
  }
  REQUIRE_MESSAGE(!tools.empty(), "shared/corpus/bpftrace-v0.26.1/tools is beside the source tree, in "
                                  "/work/shared, or named by RAWPROBE_CORPUS");
  Tally t = run_tools(tools);
  MESSAGE("bpftrace 0.26.1 tools: " << t.past_preprocessing << " of " << t.tools << " past preprocessing, "
                                    << t.loaded << " load");
  CHECK(t.past_preprocessing == t.tools);
}

TEST_SUITE_END();
