// rawprobe's own C preprocessor, run on a script before the lexer, as bpftrace runs clang's:
// #include <...> and "...", #define (object-like and function-like), #undef, #if/#ifdef/
// #ifndef/#elif/#else/#endif with defined() and C's integer expressions, #error, #pragma once.
//
// What it gives the lexer: the script's text with directives removed and macros expanded, plus
// an OriginMap so every error points at the file, line and column the user wrote. A first line
// starting with "#!" is skipped, so `#!/usr/bin/env rawprobe` scripts run as programs.
//
// Headers included with <...>, and any file found in a system directory, are system or kernel
// headers, written in C that the script language cannot parse (prototypes, attributes, inline
// functions): of those only what the preprocessor itself uses is kept (their macros and
// conditionals), and their text is dropped. The script's own text and "..." includes found
// beside it or in -I directories (struct definitions of the user's) are kept. A
// <header> that no directory has is satisfied by the kernel's BTF when there is one (kernel
// types come from BTF), and is an error naming the header otherwise.
//
// Unlike C, and like bpftrace 0.17, macros expand only in expressions: not in a map name
// `@NAME` (one token there), and not in probe specs outside every block, where a path such as
// /usr/lib/x86_64-linux-gnu must keep its `linux`; predicates (`/expr/`) are expressions.
#pragma once
#include <string>
#include <vector>

#include "arch/arch.h"
#include "engine/lang/diagnostics.h"
#include "engine/lang/source.h"

namespace rawprobe::lang {

struct PreprocessOptions {
  std::vector<std::string> include_dirs;     // -I DIR, searched before the system's
  std::vector<std::string> system_dirs;      // empty: default_system_include_dirs(arch)
  std::vector<std::string> forced_includes;  // --include FILE: as `#include "FILE"` before line 1
  bool have_btf = false;  // the kernel has BTF: BPFTRACE_HAVE_BTF is defined, as bpftrace does
  const arch::Table* arch = nullptr;  // whose predefined macros and triplet (nullptr: the host)
};

struct PreprocessResult {
  bool ok = false;
  SourceFile source{"", ""};  // what the lexer reads; positions map to the original files
  std::vector<Diagnostic> diagnostics;  // errors, at the file and line the user wrote
  std::vector<std::string> notes;       // what -v tells: headers left to BTF, built-in headers used
};

// `name` is how errors name the script ("-e" for an inline program).
PreprocessResult preprocess(const std::string& name, const std::string& text, const PreprocessOptions& options);

// The macros a script sees before its first line: the machine's (__linux__, __x86_64__,
// __LP64__, ... as gcc predefines them for that architecture) and BPFTRACE_HAVE_BTF.
std::string predefined_macros(const arch::Table& table, bool have_btf);

// Whether this kernel has BTF (/sys/kernel/btf/vmlinux exists).
bool kernel_has_btf();

}  // namespace rawprobe::lang
