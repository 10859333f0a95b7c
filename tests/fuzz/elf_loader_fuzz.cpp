// libFuzzer target: an arbitrary file through everything elf/ does with a binary: header and
// table validation, symbols (with versions and demangling), USDT notes and their argument
// specs, build ID and debug link, and the instruction-boundary sweep of a few functions.
// Seeds: small real binaries of three architectures (mk/fuzz.mk).
#include <cstddef>
#include <cstdint>

#include "elf/boundary.h"
#include "elf/debug_file.h"
#include "elf/elf_file.h"
#include "elf/symbols.h"
#include "elf/usdt_args.h"
#include "elf/usdt_notes.h"

using namespace rawprobe::elf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = ElfFile::from_bytes({data, size}, "fuzz");
  if (!file) return 0;
  build_id(*file);
  debug_link(*file);
  if (auto table = SymbolTable::read(*file)) {
    size_t n = 0;
    for (const Symbol& s : table->functions()) {
      table->demangled(s);
      table->containing(s.address + 1);
      if (n++ < 4) {
        (void)check_instruction_boundary(*file, s, 1, "f");
      }
    }
  }
  if (auto notes = read_usdt_notes(*file))
    for (const UsdtNote& note : *notes) (void)parse_usdt_args(note.args, file->machine(), file->elf_class());
  return 0;
}
