#include "engine/probes/uprobe_functions.h"

#include <algorithm>

#include "elf/disasm_listing.h"
#include "elf/hex.h"
#include "elf/segments.h"
#include "elf/symbol_match.h"

namespace rawprobe::probes {

std::vector<std::string> describe_function(elf::Binary& bin, const elf::Symbol& sym,
                                           bool disassemble) {
  std::vector<std::string> lines;
  std::string where;
  Result<elf::Placement> place = elf::code_offset(bin.file(), sym.address, sym.name);
  if (place)
    where = "file offset " + elf::hex(place->file_offset) + " in " + elf::describe(*place->segment);
  else
    where = place.error().message();
  lines.push_back("    address " + elf::hex(sym.address) + ", size " + std::to_string(sym.size) +
                  ", " + where);
  lines.push_back("    symbol " + sym.versioned_name() + " " + std::string(sym.binding_name()) +
                  " from " + elf::source_names(sym.sources));
  if (!disassemble) return lines;
  Result<const elf::SymbolTable*> table = bin.symbols();
  Result<std::vector<std::string>> dis =
      table ? elf::disassembly_listing(bin.file(), **table, sym) : Result<std::vector<std::string>>(table.error());
  if (!dis) {
    lines.push_back("    (no disassembly: " + dis.error().message() + ")");
    return lines;
  }
  for (const std::string& line : *dis) lines.push_back("    " + line);
  return lines;
}

Status list_functions(const ListRequest& request, ListSink& sink) {
  std::vector<TargetFile> targets;
  std::string pattern = "*";
  if (request.parts.empty()) {
    if (request.pid <= 0)
      return make_error("listing " + request.provider + " probes needs a binary", request.provider,
                        "write -l '" + request.provider + ":/path/to/binary:*', or give -p PID");
  } else {
    if (request.parts.size() > 1) {
      pattern.clear();
      for (size_t i = 1; i < request.parts.size(); ++i)
        pattern += (i > 1 ? ":" : "") + request.parts[i];
    }
  }
  std::string target = request.parts.empty() ? "*" : request.parts[0];
  Result<std::vector<TargetFile>> resolved = resolve_targets(target, request.pid);
  if (!resolved) return resolved.error();
  elf::SymbolQuery query = elf::parse_symbol_query(pattern);
  for (const TargetFile& t : *resolved) {
    Result<std::shared_ptr<elf::Binary>> bin = open_binary(t.path);
    Result<const elf::SymbolTable*> table = bin ? (*bin)->symbols() : Result<const elf::SymbolTable*>(bin.error());
    if (!table) {
      if (resolved->size() > 1) continue;  // -p/glob listings skip what is not ELF
      return table.error();
    }
    std::vector<const elf::Symbol*> found = elf::find_functions(**table, query);
    // bpftrace prints each name once, sorted by name. Views, not copies: libjvm.so has
    // ~48,000 functions, and sorting copied strings was most of the time of listing them.
    // Raw names point into the ELF file; demangled ones into the table's cache.
    std::vector<std::pair<std::string_view, const elf::Symbol*>> named;
    named.reserve(found.size());
    for (const elf::Symbol* s : found)
      named.emplace_back(query.demangled ? std::string_view((*table)->demangled(*s)) : s->name, s);
    std::sort(named.begin(), named.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    named.erase(std::unique(named.begin(), named.end(),
                            [](const auto& a, const auto& b) { return a.first == b.first; }),
                named.end());
    bool one = named.size() == 1;
    std::string prefix = request.provider + ":" + t.display + ":", line;
    for (const auto& [name, sym] : named) {
      line.assign(prefix).append(name);  // one buffer for every line, not one each
      if (!sink.line(line) || !sink.verbose()) continue;
      for (const std::string& line : describe_function(**bin, *sym, one)) sink.detail(line);
    }
  }
  return {};
}

}  // namespace rawprobe::probes
