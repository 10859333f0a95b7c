// Which files a uprobe/usdt target names, and their parsed ELF data (opened once per process).
//   "/tmp/fun", "build/samples/fun"   a path (kept as written for names)
//   "/usr/lib/*/libc.so.6"            a path glob: every matching file
//   "libc", "libc.so.6", "bash"       a library or program name (elf/library_path.h: with -p
//                                     PID the object that process maps, else ld.so.cache and
//                                     the library directories, else $PATH)
//   "*" with -p PID                   every file-backed object the process maps; memfd and
//                                     deleted objects are reached through
//                                     /proc/PID/map_files/START-END
//
// Each file is opened once, and everything after reaches it through that descriptor's
// /proc/self/fd/N (TargetFile::path): the ELF and DWARF reading, and the kernel's uprobe path
// lookup (PMU config1, uprobe_multi path, uprobe_events line). So the file attached is the
// file inspected, even if its name is renamed or replaced in between. With -p PID, a path is
// the process's own and is opened inside its root (sys::open_in_root): a symlink there cannot
// lead to a host file.
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
  std::string path;     // what ELF reading and the kernel open: /proc/self/fd/N
};

// The name a held /proc/self/fd/N was asked for by, for messages; other paths unchanged.
std::string shown_path(const std::string& path);
// `error` with each held /proc/self/fd/N in its text replaced by that file's own path, for
// errors of readers that took the descriptor's path (DWARF).
Error with_file_names(Error error);
// A test hook: with RAWPROBE_TEST_PAUSE_BEFORE_ATTACH=FIFO, waits once, before the first
// uprobe is attached, until a test has opened and closed that FIFO (targets.cpp).
void pause_before_attach_for_tests();

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
