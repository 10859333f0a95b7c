// Function symbols of one ELF file: .symtab and .dynsym read and merged (plus the .symtab of a
// separate debug file when the binary is stripped). Every alias of an address is kept, with
// size, binding, type (FUNC or GNU_IFUNC) and symbol version; C++ names are demangled only
// when someone asks. Names are views into the mapped file, so loading a library with tens of
// thousands of functions allocates little.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "elf/elf_file.h"

namespace rawprobe::elf {

// Which table a symbol was seen in (a bit set: a symbol is often in both).
enum SymbolSource : uint8_t {
  kFromSymtab = 1,
  kFromDynsym = 2,
  kFromDebugFile = 4,  // the .symtab of a separate debug file
};
std::string source_names(uint8_t sources);  // "symtab+dynsym"

struct Symbol {
  std::string_view name;     // without version: "malloc"
  std::string_view version;  // "GLIBC_2.2.5", or empty
  bool default_version = false;  // "@@" (the default the linker binds to) rather than "@"
  uint64_t address = 0;      // link-time address; on arm the Thumb bit is cleared
  uint64_t size = 0;
  uint8_t binding = 0;       // STB_GLOBAL, STB_WEAK, STB_LOCAL
  uint8_t type = 0;          // STT_FUNC or STT_GNU_IFUNC
  bool thumb = false;        // arm: the symbol's value had bit 0 set
  uint8_t sources = 0;       // SymbolSource bits
  // How the tables spell the name: plain ("malloc": .dynsym always, whose versions live in
  // .gnu.version) and/or with its version (glibc's .symtab writes "_IO_do_write@@GLIBC_2.2.5").
  // Listings print each spelling, as bpftrace does (elf/listing.h).
  bool spelled_plain = false;
  bool spelled_versioned = false;
  uint32_t id = 0;           // index in SymbolTable::functions()

  bool ifunc() const;
  // "malloc@@GLIBC_2.2.5" or "f@VER"; the plain name when unversioned.
  std::string versioned_name() const;
  std::string_view binding_name() const;  // "GLOBAL", "WEAK", "LOCAL"
};

// How many entries a searched table held, for "function not found" messages.
struct TableStats {
  std::string table;  // ".symtab", ".dynsym"
  std::string file;
  bool present = false;
  size_t entries = 0;    // every symbol in the table
  size_t functions = 0;  // defined FUNC/IFUNC symbols
};

class SymbolTable {
 public:
  static Result<SymbolTable> read(const ElfFile& file);
  // Adds the .symtab of a separate debug file (found by elf/debug_file.h) for a stripped binary.
  Status add_debug_file(const ElfFile& debug);

  // Every defined function symbol, sorted by address then name.
  std::span<const Symbol> functions() const { return functions_; }
  // Every function symbol at exactly `address`.
  std::span<const Symbol> aliases_at(uint64_t address) const;
  // The function whose [address, address+size) holds `address` (or that starts there).
  const Symbol* containing(uint64_t address) const;
  // Functions named `name` without a definition here (imports), e.g. "puts" in a program.
  bool is_import(std::string_view name) const;
  // The C++ demangled name (the plain name when it is not mangled); computed once, on demand.
  const std::string& demangled(const Symbol& symbol) const;
  std::span<const TableStats> searched() const { return stats_; }
  // "searched .symtab of /bin/x (0 entries: stripped), .dynsym (120 entries, 80 functions)"
  std::string searched_summary() const;

 private:
  Status read_table(const ElfFile& file, const Section& table, uint8_t source);
  void finish();

  std::vector<std::shared_ptr<const Image>> images_;  // keep the names' bytes alive
  std::vector<Symbol> functions_;
  std::vector<std::string_view> imports_;  // sorted
  std::vector<TableStats> stats_;
  uint64_t max_size_ = 0;
  mutable std::vector<std::unique_ptr<std::string>> demangled_;
};

}  // namespace rawprobe::elf
