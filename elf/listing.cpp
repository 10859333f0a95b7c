// Gathering listing facts.
#include "elf/listing.h"

#include <algorithm>

#include "elf/segments.h"

namespace rawprobe::elf {

Status add_listed_debug_symbols(Binary& binary) {
  Result<bool> loaded = binary.load_debug_symbols();
  if (!loaded) return loaded.error();
  return {};
}

Result<std::vector<FunctionListing>> list_functions(Binary& binary, std::string_view pattern) {
  auto table = binary.symbols();
  if (!table) return table.error();
  if (Status s = add_listed_debug_symbols(binary); !s) return s.error();
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

Result<FunctionNames> list_function_names(Binary& binary, const SymbolQuery& query) {
  auto table = binary.symbols();
  if (!table) return table.error();
  if (Status s = add_listed_debug_symbols(binary); !s) return s.error();
  FunctionNames out;
  std::vector<const Symbol*> found = find_functions(**table, query);
  out.names.reserve(found.size());
  auto matches = [&](std::string_view name) {
    return query.wildcard ? glob_match(query.text, name) : name == query.text;
  };
  for (const Symbol* s : found) {
    if (query.demangled) {
      out.names.push_back({(*table)->demangled(*s), s});
      continue;
    }
    // Each spelling is matched on its own, as bpftrace matches each line it would print:
    // "_IO_do_write" does not list "_IO_do_write@@GLIBC_2.2.5".
    bool listed = false;
    if (s->spelled_plain && matches(s->name)) {
      out.names.push_back({s->name, s});
      listed = true;
    }
    if (s->spelled_versioned || !listed) {
      // find_functions matched the plain or the versioned spelling; a version only .gnu.version
      // gives ("memcpy@GLIBC_2.2.5") is listed when the query names it, since it attaches.
      std::string versioned = s->versioned_name();
      if (versioned != s->name && matches(versioned)) {
        out.names.push_back({out.owned.emplace_back(std::move(versioned)), s});
        listed = true;
      }
    }
    if (!listed) out.names.push_back({s->name, s});
  }
  // Views, not copies, are sorted: libjvm.so has ~48,000 functions, and sorting copied
  // strings was most of the time of listing them.
  std::sort(out.names.begin(), out.names.end(),
            [](const ListedName& a, const ListedName& b) { return a.name < b.name; });
  out.names.erase(std::unique(out.names.begin(), out.names.end(),
                              [](const ListedName& a, const ListedName& b) { return a.name == b.name; }),
                  out.names.end());
  return out;
}

Result<std::vector<UsdtSite>> list_usdt(Binary& binary) {
  auto notes = binary.usdt_notes();
  if (!notes) return notes.error();
  if ((*notes)->empty()) return std::vector<UsdtSite>{};
  return resolve_usdt(binary, "*", "*");
}

}  // namespace rawprobe::elf
