// Collected errors of one front-end run, rendered like a compiler:
//   script.bt:3:5: error: Undefined or undeclared variable: $x
//   { $y = $x; }
//          ^~
// Several errors are kept so one run reports them all; rendering happens once at the end.
#pragma once
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/lang/source.h"

namespace rawprobe::lang {

struct Diagnostic {
  Span span;
  std::string message;
};

class Diagnostics {
 public:
  // Past this many errors, later ones are usually echoes of an earlier one.
  static constexpr size_t kMaxErrors = 20;

  void error(Span span, std::string message);
  bool has_errors() const { return !errors_.empty(); }
  const std::vector<Diagnostic>& errors() const { return errors_; }
  // Drops everything reported after `count` errors (used to discard a trial pass).
  void truncate(size_t count) { if (errors_.size() > count) errors_.resize(count); }

  // Every error as "file:line:col: error: msg", the source line and a caret under the span.
  std::string render(const SourceFile& src) const;

 private:
  std::vector<Diagnostic> errors_;
};

std::string render_diagnostic(const SourceFile& src, const Diagnostic& d);

// An Error from a lower layer as one diagnostic message: "what (object): ERRNO; hint". The
// object is left out when the caret already shows it (`shown`, e.g. the probe as written) or
// the text names it.
std::string diagnostic_message(const Error& e, const std::vector<std::string>& shown = {});

}  // namespace rawprobe::lang
