// Where errors become text: the driver renders every Error the lower layers return, in one
// form ("rawprobe: what 'object': syscall: ERRNO (text)", then detail and hint lines), on
// stderr. Lower layers return errors and never print them.
#pragma once
#include "engine/base/result.h"

namespace rawprobe::driver {

// Prints the error on stderr.
void report(const Error& error);
// The exit status of a command that returned `status`: 0, or 1 after reporting its error.
int exit_status(const Status& status);

}  // namespace rawprobe::driver
