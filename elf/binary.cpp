// Binary: lazy symbols, notes and debug file.
#include "elf/binary.h"

#include <fcntl.h>
#include <gelf.h>

#include <cerrno>

#include "elf/debug_file.h"
#include "engine/base/fd.h"

namespace rawprobe::elf {

Result<Binary> Binary::open(const std::string& path, FsRoots roots) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return syscall_error("open ELF file", "open", errno, path);
  return open_fd(fd.get(), path, std::move(roots));
}

Result<Binary> Binary::open_fd(int fd, const std::string& name, FsRoots roots) {
  auto file = ElfFile::open_fd(fd, name);
  if (!file) return file.error();
  Binary b;
  b.state_ = std::make_unique<State>(State{std::move(*file), std::move(roots), {}, {}, false, false, {}, {}});
  return b;
}

const arch::Table* Binary::arch() const {
  return arch::by_machine(file().machine(), file().elf_class());
}

Result<const SymbolTable*> Binary::symbols() {
  if (!state_->symbols) {
    auto table = SymbolTable::read(state_->file);
    if (!table) return table.error();
    state_->symbols = std::move(*table);
  }
  return &*state_->symbols;
}

Result<bool> Binary::load_debug_symbols() {
  if (state_->debug_tried) return state_->debug_loaded;
  auto table = symbols();
  if (!table) return table.error();
  state_->debug_tried = true;
  auto path = find_debug_file(state_->file, state_->roots, &state_->debug_searched);
  if (!path) return false;
  auto debug = ElfFile::open(*path);
  if (!debug) return debug.error();
  if (Status s = state_->symbols->add_debug_file(*debug); !s) return s.error();
  state_->debug_loaded = true;
  state_->debug_path = *path;
  return true;
}

Result<const std::vector<UsdtNote>*> Binary::usdt_notes() {
  if (!state_->notes) {
    auto notes = read_usdt_notes(state_->file);
    if (!notes) return notes.error();
    state_->notes = std::move(*notes);
  }
  return &*state_->notes;
}

std::optional<uint64_t> symbol_address(const ElfFile& file, std::string_view name) {
  for (const Section& sec : file.sections()) {
    if ((sec.type != SHT_SYMTAB && sec.type != SHT_DYNSYM) || sec.entsize == 0 ||
        sec.link >= file.sections().size())
      continue;
    std::span<const uint8_t> strings = file.bytes(file.sections()[sec.link]);
    Elf_Data* data = file.data(sec);
    if (!data) continue;
    for (size_t i = 1; i < sec.size / sec.entsize; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
      if (sym.st_shndx == SHN_UNDEF) continue;
      if (cstring_at(strings, sym.st_name) == name) return sym.st_value;
    }
  }
  return std::nullopt;
}

}  // namespace rawprobe::elf
