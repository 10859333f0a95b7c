// /proc/PID/maps, parsed: the mappings a user address is looked up in.
//   5603e8a77000-5603e8a78000 r-xp 00001000 fe:01 1234567   /tmp/fun
//   7f00000000-7f00001000 r-xp 00000000 00:01 2049          /memfd:lib (deleted)
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rawprobe::symbols {

struct Mapping {
  uint64_t start = 0, end = 0;  // [start, end)
  uint64_t offset = 0;          // file offset of `start`
  uint64_t device = 0;          // major << 32 | minor, as written ("fe:01")
  uint64_t inode = 0;
  bool executable = false;
  std::string path;             // as the kernel prints it, " (deleted)" and all; may be empty
  // A file that cannot be opened by its path: deleted, or a memfd ("/memfd:NAME (deleted)").
  bool file_gone() const;
  // A mapping of a file at all (not [heap], [stack], [vdso] or anonymous memory).
  bool file_backed() const { return inode != 0 && !path.empty() && path[0] == '/'; }
  // "START-END" as /proc/PID/map_files names the mapping's file.
  std::string map_files_name() const;
};

std::vector<Mapping> parse_maps(std::string_view text);

}  // namespace rawprobe::symbols
