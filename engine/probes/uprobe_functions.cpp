#include "engine/probes/uprobe_functions.h"

#include "elf/disasm_listing.h"
#include "elf/hex.h"
#include "elf/listing.h"
#include "elf/segments.h"
#include "engine/base/warnings.h"
#include "engine/dwarf/function_params.h"

#include <cstdio>

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
  std::string from = elf::source_names(sym.sources);
  if ((sym.sources & elf::kFromDebugFile) && !bin.debug_path().empty())
    from += " (debug file " + bin.debug_path() + ")";
  lines.push_back("    symbol " + sym.versioned_name() + " " + std::string(sym.binding_name()) +
                  " from " + from);
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
    Result<elf::FunctionNames> listed =
        bin ? elf::list_function_names(**bin, query) : Result<elf::FunctionNames>(bin.error());
    if (!listed) {
      if (resolved->size() > 1) continue;  // -p/glob listings skip what is not ELF
      return listed.error();
    }
    bool one = listed->names.size() == 1;
    // Parameters first, as bpftrace 0.17 prints them ("    int a"), from the file's DWARF.
    std::map<std::string, std::vector<dwarf::FunctionParam>, std::less<>> params;
    if (sink.verbose() && request.provider == "uprobe" && !listed->names.empty()) {
      auto read = dwarf::all_function_params(t.path);
      if (read)
        params = std::move(*read);
      else if (warnings_enabled())  // bpftrace 0.17's warning, word for word
        std::fprintf(stderr, "WARNING: No DWARF found for \"%s\", cannot show parameter info\n", t.display.c_str());
    }
    std::string prefix = request.provider + ":" + t.display + ":", line;
    for (const elf::ListedName& n : listed->names) {
      line.assign(prefix).append(n.name);  // one buffer for every line, not one each
      if (!sink.line(line) || !sink.verbose()) continue;
      if (auto p = params.find(n.name); p != params.end())
        for (const dwarf::FunctionParam& param : p->second) sink.detail("    " + param.spelling + (param.name.empty() ? "" : " " + param.name));
      for (const std::string& detail : describe_function(**bin, *n.symbol, one)) sink.detail(detail);
    }
  }
  return {};
}

}  // namespace rawprobe::probes
