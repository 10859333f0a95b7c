// Where errors become text: the driver renders every Error the lower layers return, in one
// form ("rawprobe: what 'object': syscall: ERRNO (text)", then detail and hint lines), on
// stderr. Lower layers return errors and never print them.
// A diagnostic of the front end, and an error that points into the script (Error::at), are
// shown as a compiler shows them: "file:line:col: error: ...", the line, and a caret under
// the part it is about.
#pragma once
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/lang/diagnostics.h"
#include "engine/lang/source.h"

namespace rawprobe::driver {

// The error as the user sees it, ending in a newline; `script` is where Error::at points,
// when known.
std::string render(const Error& error, const lang::SourceFile* script = nullptr);
// One diagnostic, ending in a newline:
//   s.bt:3:5: error: MESSAGE      (or "s.bt: MESSAGE" for a note about the whole file,
//   LINE                           "rawprobe: error: MESSAGE" for one about no file)
//   ^~~~                           the caret under the span, tabs kept so it lines up
//     NOTE...                      then the detail, and "hint: HINT"
std::string render(const lang::Diagnostic& diagnostic);
std::string render(const std::vector<lang::Diagnostic>& diagnostics);
// Prints render() on stderr.
void report(const Error& error, const lang::SourceFile* script = nullptr);
void report(const std::vector<lang::Diagnostic>& diagnostics);
// The exit status of a command that returned `status`: 0, or 1 after reporting its error.
int exit_status(const Status& status, const lang::SourceFile* script = nullptr);

}  // namespace rawprobe::driver
