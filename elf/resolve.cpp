// Probe resolution with --explain steps.
#include "elf/resolve.h"

#include <elf.h>

#include <algorithm>
#include <set>

#include "elf/boundary.h"
#include "elf/hex.h"
#include "elf/segments.h"
#include "elf/symbol_match.h"
#include "elf/thumb_code.h"
#include "elf/uprobe_refusal.h"
#include "elf/usdt_describe.h"
#include "elf/usdt_symbol.h"

namespace rawprobe::elf {

std::string Explain::text() const {
  std::string out;
  for (size_t i = 0; i < steps.size(); ++i)
    out += std::to_string(i + 1) + ". " + steps[i] + "\n";
  return out;
}

namespace {

void note(Explain* explain, std::string step) {
  if (explain) explain->add(std::move(step));
}

std::string table_of(const Symbol& s) { return source_names(s.sources); }

// address -> segment -> file offset, plus the boundary check, for one symbol+offset.
Result<UprobeSite> place(Binary& binary, const Symbol& sym, uint64_t offset,
                         const ResolveOptions& options, Explain* explain) {
  const ElfFile& file = binary.file();
  std::string name = sym.versioned_name();
  if (sym.ifunc() && !options.ifunc_resolver)
    return file.error("'" + name + "' is a GNU indirect function (IFUNC): its address is the "
                      "resolver, which runs once at load time, not the implementation",
                      "probe one of the implementations it chooses from, which are functions of "
                      "their own (glibc's strlen: __strlen_avx2, __strlen_evex, ..., local symbols found "
                      "in the separate debug file, Debian's libc6-dbg; list them with "
                      "-l 'uprobe:" + file.path() + ":*" + std::string(sym.name) + "*'), or the resolver itself "
                      "by its address: uprobe:" + file.path() + ":" + hex(sym.address));
  if (sym.address == 0)
    return file.error("'" + name + "' has address 0 (an undefined or absolute symbol)",
                      "probe the library that defines it");
  uint64_t address = sym.address + offset;
  note(explain, "symbol '" + name + "' (" + table_of(sym) + ", " +
                    std::string(sym.binding_name()) + (sym.ifunc() ? " IFUNC" : " FUNC") +
                    ", size " + std::to_string(sym.size) + ") at " + hex(sym.address) +
                    (offset ? " + " + std::to_string(offset) + " = " + hex(address) : ""));
  // The boundary verdict comes first among errors: it also refuses offsets past the
  // function's end, which may lie outside any segment. --explain still shows the placement.
  std::string boundary;
  Status checked;
  if (options.unsafe) {
    boundary = "instruction-boundary check skipped (--unsafe)";
  } else if (offset == 0) {
    boundary = "offset 0 is the function's first instruction";
  } else {
    checked = check_instruction_boundary(file, sym, offset, name);
    boundary = checked ? name + "+" + std::to_string(offset) + " starts an instruction (checked with " +
                             "Capstone from the function start)"
                       : "instruction-boundary check failed: " + checked.error().what;
  }
  auto placed = code_offset(file, address, "'" + name + "'");
  if (placed) {
    note(explain, "address " + hex(address) + " lies in " + describe(*placed->segment));
    note(explain, "file offset = " + hex(address) + " - " + hex(placed->segment->vaddr) + " + " +
                      hex(placed->segment->offset) + " = " + hex(placed->file_offset));
  }
  note(explain, boundary);
  if (!checked) return checked.error();
  if (!placed) return placed.error();
  if (auto thumb = thumb_refusal(file, &sym, address, "'" + name + (offset ? "+" + std::to_string(offset) : "") + "'"))
    return *thumb;
  // Asked of the bytes rather than learned from the attach: one refused offset fails a whole
  // uprobe_multi link, so `uprobe:libc:*` could not attach at all.
  uint64_t span = sym.size > offset ? std::min<uint64_t>(15, sym.size - offset) : 1;
  if (auto code = file.bytes_at(placed->file_offset, span, "'" + name + "'"); code)
    if (auto why = uprobe_refusal(arch::by_machine(file.machine(), file.elf_class()), *code))
      return file.error("cannot probe '" + name + (offset ? "+" + std::to_string(offset) : "") +
                            "': " + *why,
                        "probe its caller, or an instruction after this one (+OFF)");
  return UprobeSite{binary.path(), placed->file_offset, address, 0, name, offset};
}

Error not_found(Binary& binary, const SymbolTable& table, std::string_view pattern) {
  std::string hint = table.searched_summary();
  if (!binary.debug_paths_searched().empty()) {
    hint += "; debug file looked for at";
    for (const std::string& p : binary.debug_paths_searched()) hint += " " + p;
  }
  std::string bare(pattern);
  if (table.is_import(bare))
    return binary.file().error("'" + bare + "' is not defined here: the file only imports it "
                               "(an undefined symbol resolved at run time)",
                               "probe the library that defines it, e.g. uprobe:libc:" + bare);
  return binary.file().error("no function matches '" + bare + "'", hint);
}

// The .stapsdt.base step: how far a prelinker moved the file since the notes were written.
std::string base_adjustment(const ElfFile& file, const UsdtNote& n) {
  const Section* base = file.section(".stapsdt.base");
  if (!base || n.base == 0)
    return "base adjustment: none (" + std::string(base ? "the note records no base" : "no .stapsdt.base section") +
           "), address = pc = " + hex(n.address);
  int64_t shift = static_cast<int64_t>(base->addr - n.base);
  std::string how = "base adjustment: .stapsdt.base is at " + hex(base->addr) + ", the note says " +
                    hex(n.base) + ", shift " + std::to_string(shift);
  how += shift ? ": address = pc + shift = " + hex(n.address) : " (not prelinked): address = pc = " + hex(n.address);
  if (n.semaphore && shift) how += ", semaphore = " + hex(n.semaphore_address);
  return how;
}

std::string elf_machine_name(const ElfFile& file) {
  const arch::Table* table = arch::by_machine(file.machine(), file.elf_class());
  return table ? std::string(table->name) : "e_machine " + std::to_string(file.machine());
}

}  // namespace

Result<std::vector<UprobeSite>> resolve_function(Binary& binary, std::string_view pattern,
                                                 uint64_t offset, const ResolveOptions& options,
                                                 Explain* explain) {
  auto table = binary.symbols();
  if (!table) return table.error();
  SymbolQuery query = parse_symbol_query(pattern);
  std::vector<const Symbol*> found = find_functions(**table, query);
  // Stripped binaries: the separate debug file may have the symbol. Only then: a wildcard the
  // binary's own tables match does not add the debug file's functions, although -l lists them
  // (elf/listing.h). With libc6-dbg, uprobe:libc:* would then take glibc's local AVX2/EVEX
  // variants (__memset_avx2_unaligned starts with vmovd, VEX-encoded), whose first instruction
  // the kernel's uprobe decoder refuses (ENOTSUPP, arch/x86/kernel/uprobes.c good_insns_64 by
  // the VEX opcode byte), and one refused offset fails the whole uprobe_multi link.
  // uprobe_refusal() does not predict that yet.
  if (found.empty()) {
    auto loaded = binary.load_debug_symbols();
    if (!loaded) return loaded.error();
    if (*loaded) {
      note(explain, "not in the binary's own tables; loaded the separate debug file");
      found = find_functions(**table, query);
    }
  }
  if (found.empty()) return not_found(binary, **table, query.text);
  std::vector<UprobeSite> sites;
  std::set<uint64_t> addresses;
  bool all_thumb = true;
  for (const Symbol* sym : found) {
    // Aliases share one address: one probe.
    if (!addresses.insert(sym->address).second) continue;
    // A wildcard quietly skips what cannot be probed; an exact name reports why.
    auto site = place(binary, *sym, offset, options, explain);
    if (!site) {
      if (query.wildcard) {
        all_thumb = all_thumb && is_thumb_code(binary.file(), sym, sym->address + offset);
        continue;
      }
      return site.error();
    }
    sites.push_back(std::move(*site));
  }
  if (sites.empty() && all_thumb)  // say why rather than "no code"
    return place(binary, *found.front(), offset, options, nullptr).error();
  if (sites.empty())
    return binary.file().error("every function matching '" + query.text +
                               "' is an IFUNC or has no code in this file");
  return sites;
}

Result<UprobeSite> resolve_address(Binary& binary, uint64_t address,
                                   const ResolveOptions& options, Explain* explain) {
  auto table = binary.symbols();
  if (!table) return table.error();
  const Symbol* sym = (*table)->containing(address);
  if (!sym) {
    if (auto loaded = binary.load_debug_symbols(); loaded && *loaded)
      sym = (*table)->containing(address);
  }
  if (sym) {
    note(explain, "address " + hex(address) + " is " + sym->versioned_name() + "+" +
                      std::to_string(address - sym->address));
    ResolveOptions opts = options;
    opts.ifunc_resolver = true;  // a raw address says exactly where
    return place(binary, *sym, address - sym->address, opts, explain);
  }
  auto placed = code_offset(binary.file(), address, "address");
  if (!placed) return placed.error();
  if (auto thumb = thumb_refusal(binary.file(), nullptr, address, "address " + hex(address))) return *thumb;
  note(explain, "address " + hex(address) + " is in no known function; lies in " +
                    describe(*placed->segment));
  if (!options.unsafe)
    return binary.file().error("address " + hex(address) + " is not inside any known function, "
                               "so its instruction boundary cannot be checked",
                               "use --unsafe if you are sure it starts an instruction");
  note(explain, "file offset = " + hex(placed->file_offset) + "; boundary check skipped (--unsafe)");
  return UprobeSite{binary.path(), placed->file_offset, address, 0, "", 0};
}

Result<std::vector<UsdtSite>> resolve_usdt(Binary& binary, std::string_view provider,
                                           std::string_view name, Explain* explain) {
  auto notes = binary.usdt_notes();
  if (!notes) return notes.error();
  const ElfFile& file = binary.file();
  std::vector<UsdtSite> sites;
  for (const UsdtNote& n : **notes) {
    if (!provider.empty() && !glob_match(provider, n.provider)) continue;
    if (!glob_match(name, n.name)) continue;
    std::string label = n.provider + ":" + n.name;
    size_t location = 0;
    for (const UsdtSite& s : sites) location += s.provider == n.provider && s.name == n.name;
    note(explain, "USDT " + label + " note #" + std::to_string(n.index) + ": pc " + hex(n.pc) +
                      ", base " + hex(n.base) + ", semaphore " + hex(n.semaphore));
    if (explain) explain->add(base_adjustment(file, n));
    auto code = code_offset(file, n.address, "USDT probe " + label);
    if (!code) return code.error();
    note(explain, "address " + hex(n.address) + " lies in " + describe(*code->segment) +
                      "; file offset " + hex(code->file_offset));
    UsdtSite site;
    site.site = UprobeSite{binary.path(), code->file_offset, n.address, 0, label, 0};
    site.provider = n.provider;
    site.name = n.name;
    site.location = location;
    site.note_index = n.index;
    if (n.semaphore_address) {
      auto sema = data_offset(file, n.semaphore_address, "semaphore of " + label);
      if (!sema) return sema.error();
      site.site.ref_ctr_offset = sema->file_offset;
      note(explain, "semaphore " + hex(n.semaphore_address) + " lies in " + describe(*sema->segment) +
                        "; ref_ctr_offset = file offset " + hex(sema->file_offset));
    } else {
      note(explain, "semaphore: none (the probe site always runs its nop; nothing to count)");
    }
    auto args = parse_usdt_args(n.args, file.machine(), file.elf_class());
    if (!args) {
      args.error().object = binary.path() + " " + label;
      return args.error();
    }
    for (const UsdtArg& a : *args) {
      uint64_t addr = 0;
      if (!a.symbol.empty()) {
        auto found = usdt_symbol_value(file, a);
        if (!found)
          return file.error("USDT " + label + " argument '" + a.text + "' names symbol '" +
                            a.symbol + "', which the file's symbol tables do not define" +
                            (a.got_relative ? " (or the file has no GOT for its @GOTOFF)" : ""));
        addr = *found;
      }
      site.arg_symbol_addresses.push_back(addr);
    }
    note(explain, std::to_string(args->size()) + " argument(s) '" + n.args + "', decoded for " +
                      elf_machine_name(file) + ":");
    for (size_t i = 0; i < args->size() && explain; ++i)
      explain->add("  " + describe_usdt_arg(i, (*args)[i], site.arg_symbol_addresses[i]));
    site.args = std::move(*args);
    sites.push_back(std::move(site));
  }
  if (sites.empty()) {
    std::string want = (provider.empty() ? std::string("*") : std::string(provider)) + ":" +
                       std::string(name);
    return file.error("no USDT probe matches '" + want + "'",
                      std::to_string((*notes)->size()) + " USDT notes in the file" +
                          ((*notes)->empty() ? " (it has no .note.stapsdt section)" : ""));
  }
  return sites;
}

}  // namespace rawprobe::elf
