// Symbol values of USDT arguments; see elf/usdt_symbol.h.
#include "elf/usdt_symbol.h"

#include "elf/binary.h"

namespace rawprobe::elf {
namespace {

// The GOT's link-time address as @GOTOFF counts from it. On i386, ld defines
// _GLOBAL_OFFSET_TABLE_ at the start of .got.plt (of .got without lazy binding); strip
// removes that local symbol but keeps the section headers.
std::optional<uint64_t> got_address(const ElfFile& file) {
  if (auto sym = symbol_address(file, "_GLOBAL_OFFSET_TABLE_")) return sym;
  for (std::string_view name : {".got.plt", ".got"})
    for (const Section& sec : file.sections())
      if (sec.name == name) return sec.addr;
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> usdt_symbol_value(const ElfFile& file, const UsdtArg& arg) {
  std::optional<uint64_t> address = symbol_address(file, arg.symbol);
  if (!address || !arg.got_relative) return address;
  std::optional<uint64_t> got = got_address(file);
  if (!got) return std::nullopt;
  return *address - *got;
}

}  // namespace rawprobe::elf
