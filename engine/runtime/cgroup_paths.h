// cgroup_path(id)'s text, as bpftrace 0.17 makes it: for every mounted cgroup hierarchy, the
// path under its mount of the first entry (in directory order, files included) whose inode
// number is the id, as "name:/path"; the cgroup2 hierarchy first, as "unified", then the v1
// ones by name (their mount point's last component), joined with ",". A hierarchy without
// such an entry is left out. (bpftrace compares the id with every entry of a v1 hierarchy
// too, where ids are another hierarchy's numbers: a nested cgroup2 id may then name a file
// there, and rawprobe prints that as bpftrace does.)
//   unified:/,blkio:/,cpu:/,...        the root cgroup (id 1)
// cgroup_path(id, "filter") keeps the hierarchies whose name the filter matches, a pattern
// in which only * is special, as in bpftrace 0.17 ("cpu*": cpu, cpuacct, cpuset; "cpu,unified"
// is one name, so it matches none). The semantic pass puts the filter in the value's
// Type::c_name (engine/lang/semantic_cgroup_path.cpp); empty there means every hierarchy.
//   cgroup_path(1, "unified")          unified:/
//   cgroup_path(1, "nothing")          the empty string
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace rawprobe::runtime {

// Reads /proc/self/mountinfo and walks the hierarchies on first use of each id (cached).
std::string cgroup_path_text(uint64_t id, std::string_view filter = {});

// `name` matched by `pattern`, where * matches any run of characters and nothing else is
// special (bpftrace 0.17's wildcard rule for the filter).
bool hierarchy_matches(std::string_view pattern, std::string_view name);

}  // namespace rawprobe::runtime
