// libFuzzer target: any bytes as /etc/ld.so.cache (the host's, or a container root's, which
// the user of that container controls). Every entry read must come from inside the file.
#include <cstddef>
#include <cstdint>

#include "elf/ld_cache.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto entries = rawprobe::elf::parse_ld_cache({data, size}, "fuzz.cache");
  if (!entries) {
    rawprobe::fuzz::require(!entries.error().message().empty(), "a refusal says why");
    return 0;
  }
  size_t bytes = 0;
  for (const rawprobe::elf::LdCacheEntry& e : *entries) bytes += e.soname.size() + e.path.size();
  // Strings are NUL-terminated inside the file, so their total cannot exceed its size times
  // the number of entries; an entry per byte of header at most.
  rawprobe::fuzz::require(entries->size() <= size, "no more entries than bytes");
  rawprobe::fuzz::require(bytes <= size * entries->size(), "strings come from the file");
  return 0;
}
