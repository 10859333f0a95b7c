// What `rawprobe -l` / `-lv` print for a binary: every function with address, size, file
// offset and the table it came from; every USDT probe with its locations, semaphore and
// decoded arguments. Formatting is the caller's; this gathers the facts.
#pragma once
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "elf/binary.h"
#include "elf/resolve.h"
#include "elf/symbol_match.h"

namespace rawprobe::elf {

struct FunctionListing {
  const Symbol* symbol = nullptr;  // name, version, address, size, binding, type, sources
  uint64_t file_offset = 0;
  bool placed = false;  // false when the address is in no executable segment
};

// Functions matching `pattern` ("*" for all), the separate debug file's symbols included
// (add_listed_debug_symbols). Demangles nothing (call SymbolTable::demangled() per line).
Result<std::vector<FunctionListing>> list_functions(Binary& binary, std::string_view pattern);

// The names `-l 'uprobe:BIN:PATTERN'` prints, sorted by name and each once (bpftrace's form).
// A name is printed as the tables spell it: "_IO_do_write" (.dynsym) and also
// "_IO_do_write@@GLIBC_2.2.5" (glibc's .symtab); with a demangled query, the demangled name.
// Names are views into the binary, its debug file or `owned`, which must outlive them.
struct ListedName {
  std::string_view name;
  const Symbol* symbol = nullptr;
};
struct FunctionNames {
  std::vector<ListedName> names;
  std::deque<std::string> owned;  // versioned spellings (a deque: growing moves no element)
};
Result<FunctionNames> list_function_names(Binary& binary, const SymbolQuery& query);

// Listings show what attaching can reach: attaching looks a name up in the separate debug
// file when the binary lacks it (elf/resolve.h), so a listing merges that file's .symtab
// whenever one is installed (libc6-dbg: ~2,600 exported libc functions become ~7,300).
Status add_listed_debug_symbols(Binary& binary);

// Every USDT location, parsed (same shape resolve_usdt gives).
Result<std::vector<UsdtSite>> list_usdt(Binary& binary);

}  // namespace rawprobe::elf
