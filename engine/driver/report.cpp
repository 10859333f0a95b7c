#include "engine/driver/report.h"

#include <cstdio>

#include "engine/lang/diagnostics.h"

namespace rawprobe::driver {

std::string render(const Error& error, const lang::SourceFile* script) {
  if (!error.at || !script) return "rawprobe: " + error.message() + "\n";
  Error headline = error;
  headline.detail.clear();
  headline.hint.clear();
  std::string text =
      lang::render_diagnostic(*script, {{error.at->begin, error.at->end}, headline.message()});
  if (!error.detail.empty()) text += error.detail + "\n";
  if (!error.hint.empty()) text += "hint: " + error.hint + "\n";
  return text;
}

void report(const Error& error, const lang::SourceFile* script) {
  std::fputs(render(error, script).c_str(), stderr);
}

int exit_status(const Status& status, const lang::SourceFile* script) {
  if (status) return 0;
  report(status.error(), script);
  return 1;
}

}  // namespace rawprobe::driver
