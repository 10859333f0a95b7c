// What the front end found wrong in a script, as data. The passes collect errors against the
// text they read (Diagnostics, byte spans); each front-end step then hands its caller a list of
// Diagnostic, every one resolved to the file, line and column the user wrote. Only the driver
// turns them into text (engine/driver/report.h), as a compiler would:
//   script.bt:3:5: error: Undefined or undeclared variable: $x
//   { $y = $x; }
//          ^~
// Several errors are kept so one run reports them all.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/lang/source.h"

namespace rawprobe::lang {

enum class Severity {
  Error,
  Warning,
  Note,  // a remark about the run, not about one place ("too many errors, stopping")
};

// A span resolved to the file a person reads.
struct SourcePlace {
  std::string file;
  uint32_t line = 0;    // 1-based; 0 when the diagnostic is about the file as a whole
  uint32_t column = 0;  // 1-based, in bytes
  uint32_t width = 1;   // bytes of `text` the span covers (at least 1)
  std::string text;     // the whole line holding the span's start, without its newline
};

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string message;
  std::optional<SourcePlace> place;  // none: about no file (an environment variable, a flag)
  std::vector<std::string> notes;    // shown under the caret, e.g. "included from s.bt:2"
  std::string detail;                // long supporting text (a verifier log); may be empty
  std::string hint;                  // what to do instead; may be empty
};

SourcePlace place_of(const SourceFile& src, Span span);
// A diagnostic about `span` of `src`.
Diagnostic diagnostic_at(const SourceFile& src, Span span, std::string message, Severity severity = Severity::Error);

// Collects a pass's errors as spans of the text it reads.
class Diagnostics {
 public:
  // Past this many errors, later ones are usually echoes of an earlier one.
  static constexpr size_t kMaxErrors = 20;

  struct Entry {
    Span span;
    std::string message;
  };

  void error(Span span, std::string message);
  bool has_errors() const { return !errors_.empty(); }
  const std::vector<Entry>& errors() const { return errors_; }
  // Drops everything reported after `count` errors (used to discard a trial pass).
  void truncate(size_t count) { if (errors_.size() > count) errors_.resize(count); }

  // Every error resolved against `src` (the text the passes read), and a note when some were
  // dropped for being past kMaxErrors.
  std::vector<Diagnostic> resolve(const SourceFile& src) const;

 private:
  std::vector<Entry> errors_;
};

// An Error from a lower layer as one diagnostic message: "what (object): ERRNO; hint". The
// object is left out when the caret already shows it (`shown`, e.g. the probe as written) or
// the text names it.
std::string diagnostic_message(const Error& e, const std::vector<std::string>& shown = {});

}  // namespace rawprobe::lang
