// bpftrace's own tools, read where they are installed (never copied here): Debian's bpftrace
// 0.17 package puts them in /usr/sbin/*.bt, and shared/corpus holds bpftrace 0.26.1's. Each
// runs unchanged through `rawprobe --dry-run`. None may stop at its "#!" line, a preprocessor
// directive or a numeric literal any more; a tool may still stop later (C types, stacks, ...),
// and the first error of each is printed so the remaining work shows in the test's output.
#include <doctest/doctest.h>

#include <cstdlib>

#include <dirent.h>

#include <algorithm>
#include <cctype>
#include <unistd.h>
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

// Whether `text` has `word` as a whole word (letters, digits and '_' on neither side).
bool has_word(const std::string& text, const std::string& word) {
  auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    bool left = at == 0 || !is_name(text[at - 1]);
    bool right = at + word.size() >= text.size() || !is_name(text[at + word.size()]);
    if (left && right) return true;
  }
  return false;
}

// The body of `struct NAME { ... };` in bpftool's C dump of the kernel's BTF, or "".
std::string btf_struct_body(const std::string& name) {
  static const std::string dump =
      run({"bpftool", "btf", "dump", "file", "/sys/kernel/btf/vmlinux", "format", "c"}, 120).out;
  size_t at = dump.find("\nstruct " + name + " {\n");
  if (at == std::string::npos) return "";
  return dump.substr(at, dump.find("\n};\n", at) - at);
}

// A tool that does not load must fail because this machine lacks what it names, and each such
// lack is checked here against the machine itself, not taken from rawprobe's word. Returns
// the reason, or "" when the failure is not one of them.
std::string missing_on_this_machine(const std::string& message) {
  std::smatch m;
  if (message.find("this kernel has no kprobes") != std::string::npos) {
    bool none = access("/sys/bus/event_source/devices/kprobe", F_OK) != 0 &&
                access("/sys/kernel/tracing/kprobe_events", F_OK) != 0;
    return none ? "no kprobes in this kernel (no kprobe PMU, no kprobe_events)" : "";
  }
  if (std::regex_search(message, m, std::regex("no function matches '([^']+)' \\(([^)]+)\\)"))) {
    std::string symbols = run({"nm", "-D", "--defined-only", m[2].str()}).out + run({"nm", m[2].str()}).out;
    return has_word(symbols, m[1].str()) ? "" : m[2].str() + " has no " + m[1].str() + " (nm)";
  }
  if (std::regex_search(message, m, std::regex("resolve kernel symbol '([^']+)': no symbol"))) {
    std::string kallsyms = read_file("/proc/kallsyms");
    return has_word(kallsyms, m[1].str()) ? "" : "/proc/kallsyms has no " + m[1].str() + " (data symbols need CONFIG_KALLSYMS_ALL)";
  }
  if (std::regex_search(message, m, std::regex("of type 'struct ([^']+)' does not contain a field named '([^']+)'"))) {
    std::string body = btf_struct_body(m[1].str());
    return !body.empty() && !has_word(body, m[2].str()) ? "struct " + m[1].str() + " of this kernel has no " + m[2].str() + " (bpftool)" : "";
  }
  return "";
}

// Each tool loads with --dry-run, or fails for want of something this machine is checked to
// lack; the tally of both must be every tool.
void each_loads_or_lacks(const std::vector<std::string>& tools) {
  int loaded = 0, lacking = 0;
  for (const std::string& tool : tools) {
    std::string name = tool.substr(tool.rfind('/') + 1);
    RunResult r = run_rawprobe({"--dry-run", tool}, 120);
    if (r.status == 0) {
      ++loaded;
      continue;
    }
    std::string message = first_error(r.err).message;
    std::string reason = missing_on_this_machine(message);
    CHECK_MESSAGE(!reason.empty(), name << " does not load, and not for want of something here:\n" << r.err);
    if (!reason.empty()) {
      ++lacking;
      MESSAGE(name << ": not here: " << reason);
    }
  }
  MESSAGE(loaded << " of " << tools.size() << " tools load; " << lacking << " probe what this machine lacks");
  CHECK(loaded + lacking == int(tools.size()));
}

// bpftrace v0.26.1's tools: the corpus sits beside the project's checkout (../shared); a clean
// clone made elsewhere (CI's /tmp/ci) finds it through RAWPROBE_CORPUS or /work/shared.
std::vector<std::string> v026_tools() {
  std::vector<std::string> tools;
  const char* from_env = std::getenv("RAWPROBE_CORPUS");
  for (std::string corpus : {std::string(from_env ? from_env : ""), source_root() + "/../shared/corpus",
                             std::string("/work/shared/corpus")}) {
    if (corpus.empty()) continue;
    tools = tools_in(corpus + "/bpftrace-v0.26.1/tools");
    if (!tools.empty()) break;
  }
  return tools;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("each of bpftrace 0.17's tools loads, or this machine lacks what it probes") {
  std::vector<std::string> tools = tools_in("/usr/sbin");
  REQUIRE_MESSAGE(!tools.empty(), "the bpftrace package (tests/install-packages) installs /usr/sbin/*.bt");
  each_loads_or_lacks(tools);
}

TEST_CASE("each of bpftrace 0.26.1's tools loads, or this machine lacks what it probes") {
  std::vector<std::string> tools = v026_tools();
  REQUIRE_MESSAGE(!tools.empty(), "shared/corpus/bpftrace-v0.26.1/tools is beside the source tree, in "
                                  "/work/shared, or named by RAWPROBE_CORPUS");
  each_loads_or_lacks(tools);
}

TEST_CASE("bpftrace 0.17's tools in /usr/sbin get past the preprocessor and the literals") {
  std::vector<std::string> tools = tools_in("/usr/sbin");
  REQUIRE_MESSAGE(!tools.empty(), "the bpftrace package (tests/install-packages) installs /usr/sbin/*.bt");
  Tally t = run_tools(tools);
  MESSAGE("bpftrace 0.17 tools: " << t.past_preprocessing << " of " << t.tools << " past preprocessing, "
                                  << t.loaded << " load");
  CHECK(t.past_preprocessing == t.tools);
}

TEST_CASE("bpftrace 0.26.1's tools in shared/corpus get past the preprocessor and the literals") {
  std::vector<std::string> tools = v026_tools();
  REQUIRE_MESSAGE(!tools.empty(), "shared/corpus/bpftrace-v0.26.1/tools is beside the source tree, in "
                                  "/work/shared, or named by RAWPROBE_CORPUS");
  Tally t = run_tools(tools);
  MESSAGE("bpftrace 0.26.1 tools: " << t.past_preprocessing << " of " << t.tools << " past preprocessing, "
                                    << t.loaded << " load");
  CHECK(t.past_preprocessing == t.tools);
}

TEST_SUITE_END();
