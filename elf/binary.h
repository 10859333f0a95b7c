// A probe target: one ELF file with its symbols and USDT notes loaded on first use, and the
// separate debug file consulted only when the binary itself lacks a symbol (stripped builds).
// This is what engine/probes holds per `uprobe:BIN` / `usdt:BIN`.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "elf/elf_file.h"
#include "elf/library_path.h"
#include "elf/symbols.h"
#include "elf/usdt_notes.h"

namespace rawprobe::elf {

class Binary {
 public:
  static Result<Binary> open(const std::string& path, FsRoots roots = {});
  // The file open on `fd` (ElfFile::open_fd), named `name`.
  static Result<Binary> open_fd(int fd, const std::string& name, FsRoots roots = {});

  const ElfFile& file() const { return state_->file; }
  const std::string& path() const { return state_->file.path(); }
  // The binary's architecture table; nullptr when arch/ has none (listing still works).
  const arch::Table* arch() const;
  Result<const SymbolTable*> symbols();
  // Adds the separate debug file's symbols, once; false when no debug file is installed.
  // `searched` lists the paths tried (for messages).
  Result<bool> load_debug_symbols();
  const std::vector<std::string>& debug_paths_searched() const { return state_->debug_searched; }
  // The separate debug file whose symbols were added; empty when none was loaded.
  const std::string& debug_path() const { return state_->debug_path; }
  Result<const std::vector<UsdtNote>*> usdt_notes();

 private:
  struct State {
    ElfFile file;
    FsRoots roots;
    std::optional<SymbolTable> symbols;
    std::optional<std::vector<UsdtNote>> notes;
    bool debug_tried = false, debug_loaded = false;
    std::vector<std::string> debug_searched;
    std::string debug_path;
  };
  std::unique_ptr<State> state_;
};

// Link-time address of any defined symbol (functions and data, for rip-relative USDT
// arguments such as "8@counter(%rip)"), from .symtab or .dynsym.
std::optional<uint64_t> symbol_address(const ElfFile& file, std::string_view name);

}  // namespace rawprobe::elf
