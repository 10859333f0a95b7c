#include "elf/thumb_code.h"

#include "elf/boundary.h"
#include "elf/hex.h"

namespace rawprobe::elf {
namespace {

// Whether the file's architecture has a Thumb state at all (32-bit arm).
bool has_thumb_state(const ElfFile& file) {
  const arch::Table* table = arch::by_machine(file.machine(), file.elf_class());
  return table && table->thumb_symbols;
}

}  // namespace

bool is_thumb_code(const ElfFile& file, const Symbol* function, uint64_t address) {
  if (!has_thumb_state(file)) return false;
  uint64_t start = function ? function->address : 0;
  if (address < start) return false;
  bool thumb = function && function->thumb;
  for (const MappingRegion& r : mapping_regions(file, start, address - start + 1))
    if (r.kind == 't' || r.kind == 'a') thumb = r.kind == 't';
  return thumb;
}

std::optional<Error> thumb_refusal(const ElfFile& file, const Symbol* function, uint64_t address,
                                   const std::string& what) {
  if (!is_thumb_code(file, function, address)) return std::nullopt;
  std::string evidence = function && function->thumb
                             ? "its symbol value " + hex(function->address | 1) + " has the Thumb bit (bit 0) set"
                             : "a $t mapping symbol marks the code at " + hex(address) + " as Thumb";
  return file.error("cannot probe " + what + " at " + hex(address) + ": it is Thumb code (" + evidence +
                        "), and the kernel's 32-bit arm uprobes (arch/arm/probes/uprobes) take ARM-state "
                        "instructions only",
                    "rebuild the program with -marm (Debian's armhf gcc defaults to -mthumb), or probe a "
                    "function compiled as ARM code");
}

std::optional<Error> thumb_refusal(Binary& binary, uint64_t address, const std::string& what) {
  // Checked first, so a file of another architecture reads no symbol table for this.
  if (!has_thumb_state(binary.file())) return std::nullopt;
  auto table = binary.symbols();
  return thumb_refusal(binary.file(), table ? (*table)->containing(address) : nullptr, address, what);
}

}  // namespace rawprobe::elf
