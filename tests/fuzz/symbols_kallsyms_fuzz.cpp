// libFuzzer target: any bytes as /proc/kallsyms (read under the host root, which may be a
// container's). Lookups then answer with a symbol at or below the address asked.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "engine/symbols/kernel_symbols.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto table = rawprobe::symbols::KernelSymbols::parse(text);
  // Addresses to look up: a few fixed ones and the input's first bytes as one.
  uint64_t probe = 0;
  std::memcpy(&probe, data, size < sizeof probe ? size : sizeof probe);
  for (uint64_t address : {uint64_t{0}, ~uint64_t{0}, probe, uint64_t{0xffffffff81000000}}) {
    auto frame = table.find(address);
    if (!frame) continue;
    rawprobe::fuzz::require(frame->offset <= address, "the symbol found is at or below the address");
    rawprobe::fuzz::require(!frame->name.empty(), "the symbol found has a name");
  }
  return 0;
}
