// Where errors become text: the driver renders every Error the lower layers return, in one
// form ("rawprobe: what 'object': syscall: ERRNO (text)", then detail and hint lines), on
// stderr. Lower layers return errors and never print them.
// An error that points into the script (Error::at) is shown as the front end shows its own:
// "file:line:col: error: ...", the line, and a caret under the part it is about.
#pragma once
#include "engine/base/result.h"
#include "engine/lang/source.h"

namespace rawprobe::driver {

// The error as the user sees it, ending in a newline; `script` is where Error::at points,
// when known.
std::string render(const Error& error, const lang::SourceFile* script = nullptr);
// Prints render() on stderr.
void report(const Error& error, const lang::SourceFile* script = nullptr);
// The exit status of a command that returned `status`: 0, or 1 after reporting its error.
int exit_status(const Status& status, const lang::SourceFile* script = nullptr);

}  // namespace rawprobe::driver
