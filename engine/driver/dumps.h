// -d / --dump=KIND: what rawprobe made of the script, printed to standard output. Like
// bpftrace's -d, a dump is a dry run: the programs are loaded (so xlated and jited-size can
// be read back) but never attached.
//   ast         the typed AST
//   bpf         each generated program in verifier syntax, with "; file:line: source" lines
//   xlated      each program as the kernel rewrote it (BPF_OBJ_GET_INFO_BY_FD), disassembled
//   jited-size  bytes of native code per program
#pragma once
#include <cstdio>
#include <vector>

#include "engine/base/result.h"
#include "engine/driver/options.h"
#include "engine/driver/prepare.h"

namespace rawprobe::driver {

// bpf, xlated and jited-size (the AST is printed before compiling).
Status print_program_dump(DumpKind kind, const std::vector<LoadedProgram>& programs, FILE* out);

}  // namespace rawprobe::driver
