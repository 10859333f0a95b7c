// libFuzzer target: any bytes as a .bin program through the disassembler (bpfasm -d). Every
// slot that decodes must come back to the same bytes through print and parse, in both
// dialects, as the unit suite's sweep checks for a grid of field values.
#include <cstddef>
#include <cstdint>
#include <string>

#include "bpfasm/decode.h"
#include "bpfasm/parse.h"
#include "bpfasm/print.h"
#include "tests/fuzz/fuzz_check.h"

using namespace rawprobe::bpf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto slots = slots_from_bytes({data, size});
  if (!slots) return 0;
  for (size_t i = 0; i < slots->size(); ++i) {
    auto insn = decode_at(*slots, i);
    if (!insn) continue;
    std::vector<Insn> again = encode(std::span(&*insn, 1));
    rawprobe::fuzz::require(std::equal(again.begin(), again.end(), slots->begin() + i),
                            "a decoded slot encodes back to its bytes", print(*insn));
    for (Dialect d : {Dialect::Verifier, Dialect::Llvm}) {
      std::string text = print(*insn, d);
      auto parsed = parse_instruction(text);
      rawprobe::fuzz::require(parsed.ok(), "the printed instruction parses", text);
      rawprobe::fuzz::require(encode(std::span(&*parsed, 1)) == again, "print then parse keeps the bytes", text);
    }
  }
  (void)decode(*slots);
  return 0;
}
