// Gathering listing facts.
#include "elf/listing.h"

#include "elf/segments.h"
#include "elf/symbol_match.h"

namespace rawprobe::elf {

Result<std::vector<FunctionListing>> list_functions(Binary& binary, std::string_view pattern) {
  auto table = binary.symbols();
  if (!table) return table.error();
  if (!binary.file().section(".symtab"))
    if (auto loaded = binary.load_debug_symbols(); !loaded) return loaded.error();
  SymbolQuery query = parse_symbol_query(pattern);
  std::vector<FunctionListing> out;
  std::vector<const Symbol*> found =
      query.text == "*" ? std::vector<const Symbol*>{} : find_functions(**table, query);
  if (query.text == "*")
    for (const Symbol& s : (*table)->functions()) found.push_back(&s);
  out.reserve(found.size());
  for (const Symbol* s : found) {
    FunctionListing entry{s, 0, false};
    if (const Segment* seg = load_segment_of(binary.file(), s->address); seg && seg->executable()) {
      entry.file_offset = s->address - seg->vaddr + seg->offset;
      entry.placed = true;
    }
    out.push_back(entry);
  }
  return out;
}

Result<std::vector<UsdtSite>> list_usdt(Binary& binary) {
  auto notes = binary.usdt_notes();
  if (!notes) return notes.error();
  if ((*notes)->empty()) return std::vector<UsdtSite>{};
  return resolve_usdt(binary, "*", "*");
}

}  // namespace rawprobe::elf
