// Separate debug files for stripped binaries, found the way gdb finds them:
//   1. by build ID:  ROOT/usr/lib/debug/.build-id/ab/cdef...debug  (build IDs must match)
//   2. by .gnu_debuglink name (CRC32 must match), in DIR/, DIR/.debug/ and
//      ROOT/usr/lib/debug/DIR/, where DIR is the binary's directory.
#pragma once
#include <optional>
#include <string>

#include "elf/elf_file.h"
#include "elf/library_path.h"

namespace rawprobe::elf {

// The file's GNU build ID as lowercase hex, if it has one.
std::optional<std::string> build_id(const ElfFile& file);

struct DebugLink {
  std::string name;
  uint32_t crc = 0;
};
std::optional<DebugLink> debug_link(const ElfFile& file);

// The debug file's path, or nullopt when none is installed. `searched` (optional) receives
// every path tried, for "function not found" messages.
std::optional<std::string> find_debug_file(const ElfFile& file, const FsRoots& roots,
                                           std::vector<std::string>* searched = nullptr);

}  // namespace rawprobe::elf
