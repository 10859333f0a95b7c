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
  LineCol at = src.position(d.span.begin);
  std::string out = src.name() + ":" + std::to_string(at.line) + ":" + std::to_string(at.col) +
                    ": error: " + d.message + "\n";
  std::string_view line = src.line_at(d.span.begin);
  out.append(line);
  out += '\n';
  // Tabs in the prefix are copied so the caret lines up whatever the tab width.
  uint32_t col0 = at.col - 1;
  for (uint32_t i = 0; i < col0 && i < line.size(); ++i) out += line[i] == '\t' ? '\t' : ' ';
  out += '^';
  // The underline stops at the end of the first line of a multi-line span.
  uint32_t len = d.span.end > d.span.begin ? d.span.end - d.span.begin : 1;
  uint32_t room = line.size() > col0 ? static_cast<uint32_t>(line.size()) - col0 : 1;
  len = std::max<uint32_t>(1, std::min(len, room));
  out.append(len - 1, '~');
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
