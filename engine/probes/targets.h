// Which files a uprobe/usdt target names, and their parsed ELF data (opened once per process).
//   "/tmp/fun", "build/samples/fun"   a path (kept as written for names, made absolute for
//                                     the kernel)
//   "/usr/lib/*/libc.so.6"            a path glob: every matching file
//   "libc", "libc.so.6", "bash"       a library or program name (elf/library_path.h: with -p
//                                     PID the object that process maps, else ld.so.cache and
//                                     the library directories, else $PATH)
//   "*" with -p PID                   every file-backed object the process maps; memfd and
//                                     deleted objects are reached through
//                                     /proc/PID/map_files/START-END
#pragma once
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "elf/binary.h"
#include "engine/base/result.h"

namespace rawprobe::probes {

struct TargetFile {
  std::string display;  // for probe names and listings: as written, or the resolved path
  std::string path;     // what ELF reading and the kernel open
};

// Whether two paths name one inode (device and inode compared, not spellings).
bool same_file(const std::string& a, const std::string& b);

Result<std::vector<TargetFile>> resolve_targets(const std::string& target, pid_t pid);

// The files `target` names, each opened. With several files (a glob, -p PID's "*"), one that
// cannot be opened is left out when `skip_unreadable`, else its error is returned.
struct OpenedTarget {
  TargetFile file;
  std::shared_ptr<elf::Binary> binary;
};
Result<std::vector<OpenedTarget>> open_targets(const std::string& target, pid_t pid,
                                               bool skip_unreadable);

// The file-backed objects a process maps (pathnames from /proc/PID/maps), each once.
Result<std::vector<TargetFile>> mapped_objects(pid_t pid);

// Opens each path once per process (symbols and notes are then read once, on first use).
Result<std::shared_ptr<elf::Binary>> open_binary(const std::string& path);

}  // namespace rawprobe::probes
