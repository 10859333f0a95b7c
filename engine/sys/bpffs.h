// bpffs: the filesystem where a BPF object is pinned (BPF_OBJ_PIN, Linux 4.4) so that it
// outlives the process that made it. A pinned iterator link is a file whose every read runs
// the iterator's program (Linux 5.8).
//   - pin_object: pins `fd` at `path`, mounting bpffs at /sys/fs/bpf first when the path is
//     there and nothing is mounted (the mount is left, as systemd would have made it; its
//     mount(2) goes through the choke point, so --trace-syscalls shows it).
#pragma once
#include <string>

#include "engine/base/result.h"

namespace rawprobe::sys {

// Where a pin path that is not absolute goes: bpftrace's default directory.
inline constexpr const char* kBpffsDir = "/sys/fs/bpf";

// Whether `path` can take a pin, asked before anything is attached: its directory is on bpffs
// (or is /sys/fs/bpf, where pin_object mounts bpffs) and nothing is pinned there yet.
Status check_pin_path(const std::string& path, const std::string& object);

// Pins the object behind `fd` at `path`, an absolute path whose directory is on bpffs (or
// is /sys/fs/bpf with nothing mounted yet). `object` names it in errors ("iter:task").
Status pin_object(int fd, const std::string& path, const std::string& object);

}  // namespace rawprobe::sys
