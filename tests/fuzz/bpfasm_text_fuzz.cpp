// libFuzzer target: any text through the assembler (bpfasm). What it accepts, printed as a
// verifier-style listing (slot indexes, opcodes, "; " annotations), must assemble again to
// the same slots: the listing is the assembler's own input format.
#include <cstddef>
#include <cstdint>
#include <string>

#include "bpfasm/parse.h"
#include "bpfasm/print.h"
#include "tests/fuzz/fuzz_check.h"

using namespace rawprobe::bpf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto program = assemble(text, "fuzz.s");
  if (!program) {
    rawprobe::fuzz::require(!program.error().message().empty(), "a refusal says why");
    return 0;
  }
  std::string listing = print(*program);
  auto again = assemble(listing, "listing.s");
  rawprobe::fuzz::require(again.ok(), "the printed listing assembles",
                          listing + (again ? "" : "\n" + again.error().message()));
  rawprobe::fuzz::require(again->slots() == program->slots(), "the listing keeps the slots", listing);
  return 0;
}
