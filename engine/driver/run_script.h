// A whole run, from the script's text to the exit code:
//
//   front end (parse, check)  -> --dump=ast
//   -c: fork the command, held before exec; -p: check the process
//   expand every spec         -> AttachPoints per block (errors point at the spec)
//   compile                   -> maps + programs (codegen/compiled_script.h)
//   create maps, load programs (verifier rejections explained)
//                             -> --dump=bpf|xlated|jited-size, --dry-run: stop here
//   "Attaching N probes...", attach every block, write the start time for `elapsed`
//   BEGIN, release the -c command, event loop until exit()/signal/process exit
//   detach (END's probe stays), END, "\n\n", every map by name, release everything
//
// Every error path prints one specific message on stderr, returns non-zero, and releases
// whatever was attached (RAII handles).
#pragma once
#include "engine/driver/options.h"

namespace rawprobe::driver {

// Exit codes: 0 success, 1 a failed run (bad script, probe not found, verifier, attach).
int run_script(Options& options);

}  // namespace rawprobe::driver
