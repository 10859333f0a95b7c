// libFuzzer target: any bytes as a tracefs `format` file (the kernel's, or one under a
// container's or a fixture's root). What parses must describe fields that lie inside a
// record of at most 64 KiB (a perf record's size is a u16), each with a name.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/lang/tracepoint_format.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto fields = rawprobe::lang::parse_tracepoint_format(text);
  if (!fields) {
    rawprobe::fuzz::require(!fields.error().message().empty(), "a refusal says why");
    return 0;
  }
  for (const rawprobe::lang::TracepointField& f : *fields) {
    rawprobe::fuzz::require(!f.name.empty(), "every field has a name", f.declaration);
  }
  return 0;
}
