// Parser for /etc/ld.so.cache.
#include "elf/ld_cache.h"

#include <cstring>
#include <fstream>
#include <iterator>

#include "elf/byte_order.h"
#include "elf/elf_file.h"

namespace rawprobe::elf {
namespace {

constexpr char kOldMagic[] = "ld.so-1.7.0";            // 11 bytes, then nlibs u32
constexpr char kNewMagic[] = "glibc-ld.so.cache1.1";   // 20 bytes
constexpr size_t kOldEntry = 12, kNewHeader = 48, kNewEntry = 24;

}  // namespace

Result<std::vector<LdCacheEntry>> parse_ld_cache(std::span<const uint8_t> bytes,
                                                 const std::string& name) {
  auto bad = [&](const std::string& why) {
    return make_error("read the dynamic linker cache", name,
                      why + "; run ldconfig to rebuild it, or give the library's full path");
  };
  size_t start = 0;
  if (bytes.size() >= 16 && memcmp(bytes.data(), kOldMagic, 11) == 0) {
    uint64_t old_count = read_uint(&bytes[12], 4, true);
    start = (16 + old_count * kOldEntry + 7) & ~size_t{7};  // the new table is 8-aligned
  }
  if (start > bytes.size() || bytes.size() - start < kNewHeader ||
      memcmp(bytes.data() + start, kNewMagic, 20) != 0)
    return bad("no 'glibc-ld.so.cache1.1' header");
  std::span<const uint8_t> cache = bytes.subspan(start);
  // The header's flags byte says the byte order: 2 = little, 3 = big (0 = host, old ldconfig).
  bool little = cache[28] != 3;
  uint64_t count = read_uint(&cache[20], 4, little);
  if (count > (cache.size() - kNewHeader) / kNewEntry)
    return bad(std::to_string(count) + " entries do not fit in " + std::to_string(cache.size()) +
               " bytes");
  std::vector<LdCacheEntry> entries;
  entries.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* e = &cache[kNewHeader + i * kNewEntry];
    auto key = cstring_at(cache, read_uint(e + 4, 4, little));
    auto value = cstring_at(cache, read_uint(e + 8, 4, little));
    if (!key || !value) return bad("entry " + std::to_string(i) + " has a string out of bounds");
    entries.push_back({std::string(*key), std::string(*value),
                       static_cast<int32_t>(read_uint(e, 4, little))});
  }
  return entries;
}

Result<std::vector<LdCacheEntry>> read_ld_cache(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return syscall_error("read the dynamic linker cache", "open", errno, path);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_ld_cache(bytes, path);
}

}  // namespace rawprobe::elf
