// The semantic pass: resolves builtins, types every expression, checks maps, variables,
// printf formats and probe-specific builtins (retval, argN, args), and builds ProgramInfo.
// Errors read like bpftrace 0.17's ("Undefined or undeclared variable: $x", "Type mismatch
// for @m: ...") so bpftrace users recognise them.
#pragma once
#include "engine/lang/diagnostics.h"
#include "engine/lang/positional.h"
#include "engine/lang/program_info.h"
#include "engine/lang/tracepoint_format.h"

namespace rawprobe::lang {

struct SemanticOptions {
  // Where `args->field` gets tracepoint layouts; null: any use of args is an error.
  TracepointCatalog* tracepoints = nullptr;
  // Bytes a str() result occupies (bpftrace's BPFTRACE_STRLEN, default 64).
  uint32_t strlen = 64;
  // Where C type names the script does not define are looked up (kernel BTF); may be null.
  ctypes::TypeSource* kernel_types = nullptr;
  // $1, $2, ...: the words after the program on the command line (the parser uses them).
  PositionalParams params;
  // -c CMD: `cpid` is the child's pid.
  bool child_command = false;
  // --unsafe: system() and signal() are allowed, as in bpftrace.
  bool unsafe = false;
  // How kstack/ustack print when the call names no mode (config variable stack_mode).
  StackMode stack_mode = StackMode::Bpftrace;
  // Where the front end reads BPFTRACE_* variables (settings.h); null: the environment.
  const char* (*getenv)(const char*) = nullptr;
  // -p PID: library names in uprobe targets (for args->NAME's DWARF) resolve in that process.
  int pid = -1;
};

// Types `prog` in place and returns the summary. Errors go to `diags`.
ProgramInfo analyse(Program& prog, const SemanticOptions& options, Diagnostics& diags);

}  // namespace rawprobe::lang
