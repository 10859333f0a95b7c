// Test support for the lang_* unit tests: running the front end on a script, with
// tracepoint layouts read from this machine's tracefs `format` files at test time.
#pragma once
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "engine/driver/report.h"
#include "engine/lang/frontend.h"
#include "engine/lang/preprocess.h"
#include "engine/sys/tracefs.h"

namespace rawprobe::test {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Format text captured from this machine's tracefs once per test run (found, or mounted when
// run as root, by rawprobe's own sys::tracefs_dir); tests that need it skip (with a message)
// when tracefs is not readable.
inline const std::string& tracefs_format(const std::string& category, const std::string& name) {
  static std::map<std::string, std::string> cache;
  std::string key = category + "/" + name;
  auto it = cache.find(key);
  if (it == cache.end()) {
    Result<std::string> dir = sys::tracefs_dir();
    it = cache.emplace(key, dir ? read_text(*dir + "/events/" + key + "/format") : std::string()).first;
  }
  return it->second;
}

inline bool tracefs_readable() { return !tracefs_format("syscalls", "sys_enter_read").empty(); }

// Exact names only (no wildcard expansion), fed from the captured format text.
class CapturedTracepoints : public lang::TracepointCatalog {
 public:
  Result<std::vector<std::pair<std::string, std::string>>> match(const std::string& category,
                                                                 const std::string& name) override {
    if (tracefs_format(category, name).empty()) return std::vector<std::pair<std::string, std::string>>{};
    return std::vector<std::pair<std::string, std::string>>{{category, name}};
  }
  Result<std::vector<lang::TracepointField>> fields(const std::string& category, const std::string& name) override {
    return lang::parse_tracepoint_format(tracefs_format(category, name));
  }
};

inline lang::FrontEndResult front_end(const std::string& text, const std::string& name = "test.bt") {
  static CapturedTracepoints catalog;
  // As the CLI reads a script: preprocessed first.
  lang::PreprocessResult pre = lang::preprocess(name, text, {});
  if (!pre.ok) {
    lang::FrontEndResult failed;
    failed.diagnostics = pre.diagnostics;
    return failed;
  }
  lang::SemanticOptions opts;
  opts.tracepoints = &catalog;
  return lang::run_front_end(pre.source, opts);
}

// A step's diagnostics as rawprobe prints them (the driver renders them), for tests that
// compare the text the user sees.
inline std::string error_text(const std::vector<lang::Diagnostic>& d) { return driver::render(d); }
inline std::string error_text(const lang::FrontEndResult& r) { return driver::render(r.diagnostics); }
inline std::string error_text(const lang::PreprocessResult& r) { return driver::render(r.diagnostics); }

}  // namespace rawprobe::test
