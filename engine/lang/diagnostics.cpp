#include "engine/lang/diagnostics.h"

#include <algorithm>

namespace rawprobe::lang {

SourcePlace place_of(const SourceFile& src, Span span) {
  Location loc = src.locate(span);
  return {std::string(loc.file), loc.at.line, loc.at.col, loc.width, std::string(loc.line)};
}

Diagnostic diagnostic_at(const SourceFile& src, Span span, std::string message, Severity severity) {
  Diagnostic d;
  d.severity = severity;
  d.message = std::move(message);
  d.place = place_of(src, span);
  return d;
}

void Diagnostics::error(Span span, std::string message) {
  if (errors_.size() >= kMaxErrors) return;
  // The same message at the same place comes from a second analysis pass: keep one.
  for (const Entry& e : errors_)
    if (e.span.begin == span.begin && e.message == message) return;
  errors_.push_back({span, std::move(message)});
}

std::vector<Diagnostic> Diagnostics::resolve(const SourceFile& src) const {
  std::vector<Diagnostic> out;
  for (const Entry& e : errors_) out.push_back(diagnostic_at(src, e.span, e.message));
  if (errors_.size() >= kMaxErrors) {
    Diagnostic stop;
    stop.severity = Severity::Note;
    stop.message = "too many errors, stopping";
    stop.place.emplace();
    stop.place->file = src.name();
    out.push_back(std::move(stop));
  }
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
