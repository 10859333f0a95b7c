// What code generation and output need to know about a checked program, beyond the typed
// AST: every map with its key and value layout, every printf with its argument record, the
// time() formats, and which builtins the program reads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/layout.h"
#include "engine/base/map_layout.h"
#include "engine/base/types.h"
#include "engine/lang/ast.h"
#include "engine/lang/source.h"

namespace rawprobe::lang {

struct MapInfo {
  std::string name;                  // "@start"; "@" for the anonymous map
  std::vector<Type> key;             // the key parts; empty for a map without keys
  Type value;                        // Integer (8 bytes), String, Tuple, Count, Sum, ...
  // How the map sits in the kernel, planned once the program is checked; codegen, runtime
  // and output read it (engine/base/map_layout.h).
  MapLayout layout;
  Span first_use;
};

struct PrintfArg {
  Type type;         // as stored: integers widened to 8 bytes (widen_integer)
  uint32_t offset;   // in the event record; the u64 printf id is at offset 0
};

// A printf whose format and argument types PrintfFormatter::make (engine/output) accepted,
// so the runtime's formatter for it cannot fail.
struct PrintfInfo {
  std::string format;                        // unescaped
  std::vector<PrintfArg> args;
  uint32_t record_size = kEventHeaderSize;   // layout_of({u64 id, args...}).size
  Span span;
  // What is done with the formatted text: printed (printf), the file it names printed
  // (cat), run as a shell command (system), or printed to stderr (errorf, warnf: the front
  // end has put the call's place at the start of `format`). Their records are alike. join() records
  // are { u64 id; char args[kJoinArgs][kJoinArgBytes] }, `format` its separator.
  FunctionId function = FunctionId::Printf;
};

// join(): the first arguments of an argv-like array and the bytes kept of each, as bpftrace's.
inline constexpr uint32_t kJoinArgs = 16;
inline constexpr uint32_t kJoinArgBytes = 1024;

struct ProgramInfo {
  std::vector<MapInfo> maps;
  std::vector<PrintfInfo> printfs;           // Call printf's (cat's, system's) call_id indexes this
  std::vector<std::string> time_formats;     // Call time's call_id indexes this
  std::vector<BuiltinId> builtins_used;      // each once, in first-use order
  uint32_t max_arg_index = 0;                // highest N of argN used (when any)
  bool uses_args = false;

  int find_map(const std::string& name) const;
};

// The front end's product.
struct CheckedProgram {
  Program ast;
  ProgramInfo info;
};

}  // namespace rawprobe::lang
