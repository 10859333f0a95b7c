// What code generation and output need to know about a checked program, beyond the typed
// AST: every map with its key and value layout, every printf with its argument record, the
// time() formats, and which builtins the program reads.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/types.h"
#include "engine/lang/ast.h"
#include "engine/lang/printf_format.h"
#include "engine/lang/source.h"

namespace rawprobe::lang {

struct MapInfo {
  std::string name;                  // "@start"; "@" for the anonymous map
  std::vector<Type> key;             // the key parts; empty for a map without keys (bpftrace
                                     // then uses one u64 zero key)
  std::vector<uint32_t> key_offsets; // packed (see layout.h)
  uint32_t key_size = 0;             // 8 for a map without keys
  Type value;                        // Integer (8 bytes), String, Tuple, Count, Sum, ...
  Span first_use;
};

struct PrintfArg {
  Type type;         // as stored: integers widened to 8 bytes
  uint32_t offset;   // in the event record; the u64 printf id is at offset 0
};

struct PrintfInfo {
  std::string format;                        // unescaped
  std::vector<FormatConversion> conversions; // one per argument, in order
  std::vector<PrintfArg> args;
  uint32_t record_size = 8;                  // id + arguments, C-aligned
  Span span;
};

struct ProgramInfo {
  std::vector<MapInfo> maps;
  std::vector<PrintfInfo> printfs;           // Call printf's call_id indexes this
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
