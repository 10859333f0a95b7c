// Finding functions by what users type after `uprobe:BIN:`: an exact name ("malloc", or
// versioned "malloc@@GLIBC_2.2.5"), a wildcard ("str*cpy", "get?id"), or a quoted demangled
// C++ name ("ns::f(int)", also with wildcards: "ns::*").
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "elf/symbols.h"
#include "engine/base/glob.h"

namespace rawprobe::elf {

struct SymbolQuery {
  std::string text;        // without surrounding quotes
  bool demangled = false;  // compare against demangled C++ names
  bool wildcard = false;   // contains * or ?
};

// `"ns::f(int)"` (quotes kept or already stripped by the parser) selects demangled matching;
// so does a name containing "::" or "(", which no mangled name can contain.
SymbolQuery parse_symbol_query(std::string_view pattern);

// Shell-style match (engine/base/glob.h).
using rawprobe::glob_match;

// Every function the query selects, in address order. Demangles only for demangled queries.
std::vector<const Symbol*> find_functions(const SymbolTable& table, const SymbolQuery& query);

}  // namespace rawprobe::elf
