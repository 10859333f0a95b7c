// Reading and merging function symbols.
#include "elf/symbols.h"

#include <cxxabi.h>
#include <gelf.h>

#include <algorithm>
#include <cstdlib>

#include "arch/arch.h"
#include "elf/symbol_versions.h"

namespace rawprobe::elf {

std::string source_names(uint8_t sources) {
  std::string out;
  auto add = [&](uint8_t bit, const char* name) {
    if (sources & bit) out += (out.empty() ? "" : "+") + std::string(name);
  };
  add(kFromSymtab, "symtab");
  add(kFromDynsym, "dynsym");
  add(kFromDebugFile, "debug-symtab");
  return out;
}

bool Symbol::ifunc() const { return type == STT_GNU_IFUNC; }

std::string Symbol::versioned_name() const {
  if (version.empty()) return std::string(name);
  return std::string(name) + (default_version ? "@@" : "@") + std::string(version);
}

std::string_view Symbol::binding_name() const {
  switch (binding) {
    case STB_GLOBAL: return "GLOBAL";
    case STB_WEAK: return "WEAK";
    case STB_LOCAL: return "LOCAL";
    case STB_GNU_UNIQUE: return "UNIQUE";
    default: return "OTHER";
  }
}

Result<SymbolTable> SymbolTable::read(const ElfFile& file) {
  SymbolTable table;
  table.images_.push_back(file.image());
  const Section* symtab = nullptr;
  const Section* dynsym = nullptr;
  for (const Section& sec : file.sections()) {
    if (sec.type == SHT_SYMTAB && !symtab) symtab = &sec;
    if (sec.type == SHT_DYNSYM && !dynsym) dynsym = &sec;
  }
  table.stats_.push_back({".symtab", file.path(), symtab != nullptr, 0, 0});
  if (symtab)
    if (Status s = table.read_table(file, *symtab, kFromSymtab); !s) return s.error();
  table.stats_.push_back({".dynsym", file.path(), dynsym != nullptr, 0, 0});
  if (dynsym)
    if (Status s = table.read_table(file, *dynsym, kFromDynsym); !s) return s.error();
  table.finish();
  return table;
}

Status SymbolTable::add_debug_file(const ElfFile& debug) {
  images_.push_back(debug.image());
  const Section* symtab = nullptr;
  for (const Section& sec : debug.sections())
    if (sec.type == SHT_SYMTAB) symtab = &sec;
  stats_.push_back({".symtab", debug.path(), symtab != nullptr, 0, 0});
  if (symtab)
    if (Status s = read_table(debug, *symtab, kFromDebugFile); !s) return s;
  finish();
  return {};
}

Status SymbolTable::read_table(const ElfFile& file, const Section& table, uint8_t source) {
  TableStats& stats = stats_.back();
  if (table.entsize == 0 || table.link >= file.sections().size())
    return file.error("symbol table " + std::string(table.name) +
                      " has a zero entry size or a bad string table index");
  std::span<const uint8_t> strings = file.bytes(file.sections()[table.link]);
  std::vector<SymbolVersion> versions;
  if (table.type == SHT_DYNSYM) {
    auto v = read_symbol_versions(file, table);
    if (!v) return v.error();
    versions = std::move(*v);
  }
  Elf_Data* data = file.data(table);
  if (!data) return file.error("cannot read " + std::string(table.name) + ": " + elf_errmsg(-1));
  size_t count = table.size / table.entsize;
  stats.entries = count;
  functions_.reserve(functions_.size() + count);
  const arch::Table* arch_table = arch::by_machine(file.machine(), file.elf_class());
  bool arm = arch_table && arch_table->thumb_symbols;
  for (size_t i = 1; i < count; ++i) {
    GElf_Sym sym;
    if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
    uint8_t type = GELF_ST_TYPE(sym.st_info);
    if (type != STT_FUNC && type != STT_GNU_IFUNC) continue;
    auto name = cstring_at(strings, sym.st_name);
    if (!name || name->empty()) continue;
    if (sym.st_shndx == SHN_UNDEF) {
      imports_.push_back(name->substr(0, name->find('@')));
      continue;
    }
    Symbol s;
    s.name = *name;
    // .symtab spells versions into the name ("memcpy@@GLIBC_2.14"); .dynsym uses .gnu.version
    // (so its names, often long C++ ones, are not scanned again).
    size_t at = table.type == SHT_DYNSYM ? std::string_view::npos : name->find('@');
    if (at != std::string_view::npos) {
      s.name = name->substr(0, at);
      std::string_view rest = name->substr(at + 1);
      s.default_version = !rest.empty() && rest[0] == '@';
      s.version = s.default_version ? rest.substr(1) : rest;
      s.spelled_versioned = true;
    } else if (i < versions.size() && !versions[i].name.empty()) {
      s.version = versions[i].name;
      s.default_version = !versions[i].hidden;
    }
    s.spelled_plain = !s.spelled_versioned;
    s.address = sym.st_value;
    if (arm && (s.address & 1)) {
      s.thumb = true;
      s.address &= ~uint64_t{1};
    }
    s.size = sym.st_size;
    s.binding = GELF_ST_BIND(sym.st_info);
    s.type = type;
    s.sources = source;
    functions_.push_back(s);
    ++stats.functions;
  }
  return {};
}

// Sorts by (address, name) and merges the entries the tables share.
void SymbolTable::finish() {
  std::sort(functions_.begin(), functions_.end(), [](const Symbol& a, const Symbol& b) {
    if (a.address != b.address) return a.address < b.address;
    return a.name != b.name ? a.name < b.name : a.version > b.version;  // versioned first
  });
  // Merge in place (no second copy of a table that can hold tens of thousands of entries).
  size_t out = 0;
  for (size_t i = 0; i < functions_.size(); ++i) {
    const Symbol& s = functions_[i];
    // One function seen in both tables: .symtab spells no version for it, .dynsym does. Two
    // versions of one name at one address (mq_unlink@GLIBC_2.3.4 and @@GLIBC_2.34) stay two.
    if (out > 0 && functions_[out - 1].address == s.address && functions_[out - 1].name == s.name &&
        (s.version.empty() || s.version == functions_[out - 1].version)) {
      Symbol& m = functions_[out - 1];
      m.sources |= s.sources;
      m.spelled_plain |= s.spelled_plain;
      m.spelled_versioned |= s.spelled_versioned;
      if (m.version.empty()) {
        m.version = s.version;
        m.default_version = s.default_version;
      }
      if (m.size == 0) m.size = s.size;
      // A local copy and a global of the same name: the global is what users mean.
      if (m.binding == STB_LOCAL) m.binding = s.binding;
      continue;
    }
    functions_[out++] = s;
  }
  functions_.resize(out);
  max_size_ = 0;
  for (size_t i = 0; i < functions_.size(); ++i) {
    functions_[i].id = static_cast<uint32_t>(i);
    max_size_ = std::max(max_size_, functions_[i].size);
  }
  std::sort(imports_.begin(), imports_.end());
  imports_.erase(std::unique(imports_.begin(), imports_.end()), imports_.end());
  demangled_.clear();
  demangled_.resize(functions_.size());
}

std::span<const Symbol> SymbolTable::aliases_at(uint64_t address) const {
  auto lo = std::lower_bound(functions_.begin(), functions_.end(), address,
                             [](const Symbol& s, uint64_t a) { return s.address < a; });
  auto hi = lo;
  while (hi != functions_.end() && hi->address == address) ++hi;
  return {lo, hi};
}

const Symbol* SymbolTable::containing(uint64_t address) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), address,
                             [](uint64_t a, const Symbol& s) { return a < s.address; });
  // Walk back over every symbol that starts close enough to still cover the address.
  while (it != functions_.begin()) {
    --it;
    if (address - it->address > max_size_) break;
    if (address == it->address || address - it->address < it->size) return &*it;
  }
  return nullptr;
}

bool SymbolTable::is_import(std::string_view name) const {
  return std::binary_search(imports_.begin(), imports_.end(), name);
}

const std::string& SymbolTable::demangled(const Symbol& symbol) const {
  std::unique_ptr<std::string>& slot = demangled_[symbol.id];
  if (!slot) {
    std::string name(symbol.name);
    slot = std::make_unique<std::string>(name);
    if (name.size() > 2 && name[0] == '_' && name[1] == 'Z') {
      int status = 0;
      char* out = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
      if (status == 0 && out) *slot = out;
      free(out);
    }
  }
  return *slot;
}

std::string SymbolTable::searched_summary() const {
  std::string out;
  for (const TableStats& t : stats_) {
    if (!out.empty()) out += ", ";
    out += t.table + " of " + t.file;
    if (!t.present)
      out += t.table == ".symtab" ? " (absent: stripped)" : " (absent)";
    else
      out += " (" + std::to_string(t.entries) + " symbols, " + std::to_string(t.functions) +
             " functions)";
  }
  return "searched " + out;
}

}  // namespace rawprobe::elf
