// libFuzzer target: any bytes as /proc/PID/maps. Every mapping parsed is a range whose
// start is not above its end, as the kernel prints them.
#include <cstddef>
#include <cstdint>

#include "engine/symbols/process_maps.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const rawprobe::symbols::Mapping& m : rawprobe::symbols::parse_maps(text)) {
    rawprobe::fuzz::require(m.start <= m.end, "a mapping's start is not above its end", m.path);
    (void)m.file_gone();
    (void)m.file_backed();
    (void)m.map_files_name();
  }
  return 0;
}
