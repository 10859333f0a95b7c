// The function symbols of one ELF file in a compact, self-contained table: what user stacks
// are symbolized with. One table per file, shared by every process that maps it (see
// symbol_cache.h); the ELF file itself is closed once the table is built, so a table costs
// its entries and names only (bytes()), which the cache's memory budget counts.
//
// Lookup follows bcc's rule, which bpftrace 0.17 prints through: the symbol whose
// [address, address + size) holds the address, nested symbols included, found by walking back
// from the first symbol above it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "elf/library_path.h"
#include "engine/base/result.h"

namespace rawprobe::symbols {

struct UserFrame {
  std::string name;     // demangled, as bpftrace prints it
  uint64_t offset = 0;  // address - symbol start
};

class FileSymbols {
 public:
  // Reads `path` (any openable path: /proc/PID/map_files/..., /proc/PID/root/...), and the
  // separate debug file (elf/debug_file.h, under `roots`) when the file has no .symtab.
  static Result<FileSymbols> load(const std::string& path, const elf::FsRoots& roots);

  // The symbol of the code at `file_offset` in the file (a mapping's offset plus the
  // distance from its start), converted to a link-time address through its PT_LOAD.
  std::optional<UserFrame> find_file_offset(uint64_t file_offset) const;
  // The symbol at link-time address `address`.
  std::optional<UserFrame> find_address(uint64_t address) const;
  // The link-time address of function `name` (mangled or plain), for uaddr().
  std::optional<uint64_t> address_of(std::string_view name) const;
  size_t size() const { return entries_.size(); }
  size_t bytes() const;

 private:
  struct Entry {
    uint64_t address, size;
    uint32_t name;  // offset into names_
  };
  struct Load {
    uint64_t offset, vaddr, filesz;
  };
  std::vector<Entry> entries_;  // sorted by address
  std::string names_;
  std::vector<Load> loads_;
};

// The C++ demangled form of `name`, or `name` itself.
std::string demangle(std::string_view name);

}  // namespace rawprobe::symbols
