#include "engine/lang/diagnostics.h"

#include <algorithm>

namespace rawprobe::lang {

void Diagnostics::error(Span span, std::string message) {
  if (errors_.size() >= kMaxErrors) return;
  // The same message at the same place comes from a second analysis pass: keep one.
  for (const Diagnostic& d : errors_)
    if (d.span.begin == span.begin && d.message == message) return;
  errors_.push_back({span, std::move(message)});
}

std::string render_diagnostic(const SourceFile& src, const Diagnostic& d) {
  Location loc = src.locate(d.span);
  std::string out = std::string(loc.file) + ":" + std::to_string(loc.at.line) + ":" +
                    std::to_string(loc.at.col) + ": error: " + d.message + "\n";
  out.append(loc.line);
  out += '\n';
  // Tabs in the prefix are copied so the caret lines up whatever the tab width.
  uint32_t col0 = loc.at.col - 1;
  for (uint32_t i = 0; i < col0 && i < loc.line.size(); ++i) out += loc.line[i] == '\t' ? '\t' : ' ';
  out += '^';
  // The underline stops at the end of the first line of a multi-line span.
  out.append(loc.width - 1, '~');
  out += '\n';
  return out;
}

std::string Diagnostics::render(const SourceFile& src) const {
  std::string out;
  for (const Diagnostic& d : errors_) out += render_diagnostic(src, d);
  if (errors_.size() >= kMaxErrors) out += src.name() + ": too many errors, stopping\n";
  return out;
}

std::string diagnostic_message(const Error& e, const std::vector<std::string>& shown) {
  std::string message = e.what;
  bool object_shown = e.object.empty() || message.find(e.object) != std::string::npos ||
                      std::find(shown.begin(), shown.end(), e.object) != shown.end();
  if (!object_shown) message += " (" + e.object + ")";
  if (e.err) message += ": " + errno_name(e.err);
  if (!e.hint.empty()) message += "; " + e.hint;
  return message;
}

}  // namespace rawprobe::lang
