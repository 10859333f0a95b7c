// GNU symbol versioning (.gnu.version, .gnu.version_d, .gnu.version_r): the version each
// .dynsym entry carries, so that listings show "malloc@@GLIBC_2.2.5" as readelf does.
#pragma once
#include <string_view>
#include <vector>

#include "elf/elf_file.h"

namespace rawprobe::elf {

struct SymbolVersion {
  std::string_view name;  // empty: unversioned (local or global base version)
  bool hidden = false;    // "@" (not the default) rather than "@@"
};

// One entry per symbol of `dynsym`; empty when the file has no version table. Malformed
// version sections are an error naming the section.
Result<std::vector<SymbolVersion>> read_symbol_versions(const ElfFile& file, const Section& dynsym);

}  // namespace rawprobe::elf
