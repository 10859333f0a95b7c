// libFuzzer target: USDT argument spec strings for every architecture. The first byte picks
// the arch/ table (so every parser is reached); the rest is the spec text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "arch/arch.h"
#include "elf/usdt_args.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  auto tables = rawprobe::arch::all();
  const rawprobe::arch::Table& table = *tables[data[0] % tables.size()];
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  if (auto args = rawprobe::elf::parse_usdt_args(text, table))
    for (const auto& arg : *args) {
      arg.describe();
      arg.unsupported_reason();
    }
  return 0;
}
