// /etc/ld.so.cache, read without the dynamic linker (rawprobe ships static, and a target's
// cache may belong to another root or container). glibc >= 2.32 writes only the "new"
// format; older files put it after an "ld.so-1.7.0" block, which is skipped:
//
//   "glibc-ld.so.cache1.1" | nlibs u32 | len_strings u32 | flags u8 | pad[3] |
//   extension_offset u32 | unused u32[3] | nlibs x { flags i32, key u32, value u32,
//   osversion u32, hwcap u64 } | strings
//
// key and value are offsets of the soname and the path from the start of that header.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/base/result.h"

namespace rawprobe::elf {

struct LdCacheEntry {
  std::string soname;  // "libc.so.6"
  std::string path;    // "/lib/x86_64-linux-gnu/libc.so.6"
  int32_t flags = 0;   // FLAG_ELF_LIBC6 | architecture bits, as ldconfig -p decodes them
};

Result<std::vector<LdCacheEntry>> parse_ld_cache(std::span<const uint8_t> bytes,
                                                 const std::string& name);
Result<std::vector<LdCacheEntry>> read_ld_cache(const std::string& path);

}  // namespace rawprobe::elf
