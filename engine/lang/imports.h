// bpftrace 0.26's `import "NAME";`: what a name means on disk. The preprocessor (preprocess.cpp)
// finds the statement in a script and splices in what this returns, so an imported file's
// positions stay its own (file:line:col in errors) and its probes come before the importer's.
//
// A name is looked for in the script's directory, then in each -I directory (an absolute
// name only where it is). It may be a bpftrace script (.bt), a C header (.h: its type
// definitions, read as `#include "NAME"` reads one), or a directory, whose .bt and .h files
// are imported (headers first, each group by name; subdirectories and other files are
// skipped). A file or directory that every user may write is refused, as bpftrace refuses it:
// whoever can change it could change what a root tracer runs. A .bpf.c (C compiled to BPF) or
// .bpf.o (a BPF object to link) is refused with the reason: rawprobe has no C compiler and no
// BPF linker.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/result.h"

namespace rawprobe::lang {

enum class ImportKind { Script, Header };

struct ImportedFile {
  std::string path;  // as found (and as errors name it)
  std::string text;
  ImportKind kind = ImportKind::Script;
};

// Whether the word `import` at `pos` starts an import statement: followed by a blank or a quote.
bool starts_import(std::string_view text, uint32_t pos);

// `import "NAME";` read from `pos` (where `import` starts) to the end of its line.
struct ImportStatement {
  std::string name;
  uint32_t name_offset = 0;  // the opening quote
  uint32_t name_length = 0;  // with both quotes
  uint32_t end = 0;          // just past the ';'
};
// On failure the Error's `at` is the offending byte range in `text`.
Result<ImportStatement> read_import_statement(std::string_view text, uint32_t pos);

// The files `name` stands for, searching `dirs` in order. Errors say what was looked at and
// what to do.
Result<std::vector<ImportedFile>> resolve_import(const std::string& name, const std::vector<std::string>& dirs);

}  // namespace rawprobe::lang
