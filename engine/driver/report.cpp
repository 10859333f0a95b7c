#include "engine/driver/report.h"

#include <cstdio>

namespace rawprobe::driver {
namespace {

const char* label(lang::Severity severity) {
  switch (severity) {
    case lang::Severity::Error: return "error: ";
    case lang::Severity::Warning: return "warning: ";
    case lang::Severity::Note: return "";
  }
  return "";
}

// "LINE\n" and, under it, a caret and tildes over the span's part of that line.
std::string underlined(const lang::SourcePlace& place) {
  std::string out = place.text + "\n";
  // Tabs in the prefix are copied so the caret lines up whatever the tab width.
  uint32_t col0 = place.column - 1;
  for (uint32_t i = 0; i < col0 && i < place.text.size(); ++i) out += place.text[i] == '\t' ? '\t' : ' ';
  out += '^';
  // The underline stops at the end of the first line of a multi-line span.
  out.append(place.width - 1, '~');
  out += '\n';
  return out;
}

}  // namespace

std::string render(const lang::Diagnostic& d) {
  std::string out;
  if (!d.place) {
    out = "rawprobe: " + std::string(label(d.severity)) + d.message + "\n";
  } else if (d.place->line == 0) {
    out = d.place->file + ": " + label(d.severity) + d.message + "\n";
  } else {
    out = d.place->file + ":" + std::to_string(d.place->line) + ":" + std::to_string(d.place->column) + ": " +
          label(d.severity) + d.message + "\n" + underlined(*d.place);
  }
  for (const std::string& note : d.notes) out += "  " + note + "\n";
  if (!d.detail.empty()) out += d.detail + "\n";
  if (!d.hint.empty()) out += "hint: " + d.hint + "\n";
  return out;
}

std::string render(const std::vector<lang::Diagnostic>& diagnostics) {
  std::string out;
  for (const lang::Diagnostic& d : diagnostics) out += render(d);
  return out;
}

std::string render(const Error& error, const lang::SourceFile* script) {
  if (!error.at || !script) return "rawprobe: " + error.message() + "\n";
  Error headline = error;
  headline.detail.clear();
  headline.hint.clear();
  lang::Diagnostic d = lang::diagnostic_at(*script, {error.at->begin, error.at->end}, headline.message());
  d.detail = error.detail;
  d.hint = error.hint;
  return render(d);
}

void report(const Error& error, const lang::SourceFile* script) {
  std::fputs(render(error, script).c_str(), stderr);
}

void report(const std::vector<lang::Diagnostic>& diagnostics) {
  std::fputs(render(diagnostics).c_str(), stderr);
}

int exit_status(const Status& status, const lang::SourceFile* script) {
  if (status) return 0;
  report(status.error(), script);
  return 1;
}

}  // namespace rawprobe::driver
