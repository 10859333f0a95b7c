// cgroup_path(id)'s text, as bpftrace 0.17 makes it: for every mounted cgroup hierarchy, the
// path under its mount of the first entry (in directory order, files included) whose inode
// number is the id, as "name:/path"; the cgroup2 hierarchy first, as "unified", then the v1
// ones by name (their mount point's last component), joined with ",". A hierarchy without
// such an entry is left out. (bpftrace compares the id with every entry of a v1 hierarchy
// too, where ids are another hierarchy's numbers: a nested cgroup2 id may then name a file
// there, and rawprobe prints that as bpftrace does.)
//   unified:/,blkio:/,cpu:/,...        the root cgroup (id 1)
#pragma once
#include <cstdint>
#include <string>

namespace rawprobe::runtime {

// Reads /proc/self/mountinfo and walks the hierarchies on first use of each id (cached).
std::string cgroup_path_text(uint64_t id);

}  // namespace rawprobe::runtime
