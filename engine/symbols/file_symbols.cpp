#include "engine/symbols/file_symbols.h"

#include <cxxabi.h>
#include <elf.h>

#include <algorithm>
#include <cstdlib>

#include "elf/debug_file.h"
#include "elf/elf_file.h"
#include "elf/symbols.h"

namespace rawprobe::symbols {

std::string demangle(std::string_view name) {
  std::string plain(name);
  if (plain.size() < 3 || plain[0] != '_' || plain[1] != 'Z') return plain;
  int status = 0;
  char* out = abi::__cxa_demangle(plain.c_str(), nullptr, nullptr, &status);
  if (status == 0 && out) plain = out;
  std::free(out);
  return plain;
}

namespace {

// Of aliases at one address the one named first: GLOBAL before WEAK before LOCAL.
int binding_rank(uint8_t binding) { return binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 1 : 2; }

}  // namespace

Result<FileSymbols> FileSymbols::load(const std::string& path, const elf::FsRoots& roots) {
  Result<elf::ElfFile> file = elf::ElfFile::open(path);
  if (!file) return file.error();
  Result<elf::SymbolTable> table = elf::SymbolTable::read(*file);
  if (!table) return table.error();
  if (!file->section(".symtab")) {
    if (std::optional<std::string> debug = elf::find_debug_file(*file, roots)) {
      if (Result<elf::ElfFile> d = elf::ElfFile::open(*debug)) (void)table->add_debug_file(*d);
    }
  }
  FileSymbols out;
  for (const elf::Segment& s : file->segments())
    if (s.type == PT_LOAD) out.loads_.push_back({s.offset, s.vaddr, s.filesz});
  std::span<const elf::Symbol> functions = table->functions();
  out.entries_.reserve(functions.size());
  for (size_t i = 0; i < functions.size();) {
    // One entry per address: the best-named alias, with the largest size any alias gives.
    size_t j = i, best = i;
    uint64_t size = 0;
    for (; j < functions.size() && functions[j].address == functions[i].address; ++j) {
      size = std::max(size, functions[j].size);
      if (binding_rank(functions[j].binding) < binding_rank(functions[best].binding)) best = j;
    }
    out.entries_.push_back({functions[i].address, size, uint32_t(out.names_.size())});
    out.names_.append(functions[best].name);
    out.names_.push_back('\0');
    i = j;
  }
  out.entries_.shrink_to_fit();
  out.names_.shrink_to_fit();
  return out;
}

size_t FileSymbols::bytes() const {
  return sizeof(*this) + entries_.capacity() * sizeof(Entry) + names_.capacity() + loads_.capacity() * sizeof(Load);
}

std::optional<UserFrame> FileSymbols::find_file_offset(uint64_t file_offset) const {
  for (const Load& l : loads_)
    if (file_offset >= l.offset && file_offset < l.offset + l.filesz)
      return find_address(file_offset - l.offset + l.vaddr);
  return std::nullopt;
}

std::optional<UserFrame> FileSymbols::find_address(uint64_t address) const {
  auto it = std::upper_bound(entries_.begin(), entries_.end(), address,
                             [](uint64_t a, const Entry& e) { return a < e.address; });
  if (it == entries_.begin()) return std::nullopt;
  --it;
  // Walk back over symbols nested in a larger one; stop at the first that cannot enclose
  // the symbol just below the address.
  uint64_t limit = it->address;
  for (;; --it) {
    if (address < it->address + it->size) return UserFrame{demangle(names_.data() + it->name), address - it->address};
    if (limit > it->address + it->size || it == entries_.begin()) return std::nullopt;
  }
}

std::optional<uint64_t> FileSymbols::address_of(std::string_view name) const {
  for (const Entry& e : entries_)
    if (name == names_.data() + e.name) return e.address;
  return std::nullopt;
}

}  // namespace rawprobe::symbols
