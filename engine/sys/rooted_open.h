// Opening a file as another process sees it. A process in a container (or chroot) names its
// files from its own root, which we reach as the directory /proc/PID/root. Joining the two as
// a string ("/proc/PID/root" + "/lib/x.so") is not enough: the kernel follows an absolute
// symlink inside that tree ("/lib/x.so -> /etc/shadow") and ".." from OUR root, so a file the
// container planted would point a probe, or the symbolizer, at a host file. Here every
// symlink and ".." is resolved inside the root, as the process itself would resolve it:
// openat2(RESOLVE_IN_ROOT) on 5.6 and later, a walk of our own on older kernels.
#pragma once
#include <string>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

// `path` (absolute or not, as the process names it) opened read-only beneath `root` (a
// directory: "/proc/1234/root", or a fixture). Magic links (/proc/self/...) inside the root
// are refused. Errors name the root, the path and why (ENOENT, ELOOP, ...).
Result<Fd> open_in_root(const std::string& root, const std::string& path);

// The walk open_in_root falls back to when the kernel has no openat2 (before 5.6): one
// component at a time from the root's descriptor, each symlink read and its target walked
// from the root when absolute, ".." never above the root, at most 40 symlinks (ELOOP after,
// as the kernel counts), the last component opened with O_NOFOLLOW so a link swapped in
// after the check is refused rather than followed. Exposed for its tests.
Result<Fd> open_in_root_by_walk(const std::string& root, const std::string& path);

}  // namespace rawprobe::sys
