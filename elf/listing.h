// What `rawprobe -l` / `-lv` print for a binary: every function with address, size, file
// offset and the table it came from; every USDT probe with its locations, semaphore and
// decoded arguments. Formatting is the caller's; this gathers the facts.
#pragma once
#include <string>
#include <vector>

#include "elf/binary.h"
#include "elf/resolve.h"

namespace rawprobe::elf {

struct FunctionListing {
  const Symbol* symbol = nullptr;  // name, version, address, size, binding, type, sources
  uint64_t file_offset = 0;
  bool placed = false;  // false when the address is in no executable segment
};

// Functions matching `pattern` ("*" for all). Includes the debug file's symbols when the
// binary has no .symtab. Demangles nothing (call SymbolTable::demangled() per line).
Result<std::vector<FunctionListing>> list_functions(Binary& binary, std::string_view pattern);

// Every USDT location, parsed (same shape resolve_usdt gives).
Result<std::vector<UsdtSite>> list_usdt(Binary& binary);

}  // namespace rawprobe::elf
