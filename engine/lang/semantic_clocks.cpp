// cgroupid("path"): the cgroup v2 id of the group at path, found when the script is checked
// (a constant in the program, as in bpftrace 0.17); nsecs(CLOCK), a timestamp of a named
// clock (bpftrace 0.26.1; bare nsecs stays a builtin); and pid(NS) and tid(NS), ids as a pid
// namespace sees them.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <cerrno>
#include <cstring>

#include "engine/lang/clocks.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {
namespace {

constexpr long kCgroup2Magic = 0x63677270;  // CGROUP2_SUPER_MAGIC, <linux/magic.h>
constexpr int kFileidKernfs = 0xfe;         // FILEID_KERNFS, <linux/exportfs.h>

// The kernfs node id of a cgroup directory, from its file handle (kernfs_encode_fh: the
// 8-byte id). On a 64-bit kernel that is the inode number; on a 32-bit one the inode number
// is only its low half and the high half is the node's generation, so st_ino alone gave 22
// where bpf_get_current_cgroup_id() read 4294967318 (generation 1, inode 22) on armmp.
// Falls back to the inode number where the file system gives no such handle.
uint64_t kernfs_node_id(const std::string& path, ino_t inode) {
  struct {
    file_handle head;
    unsigned char bytes[sizeof(uint64_t)];
  } handle{};
  handle.head.handle_bytes = sizeof handle.bytes;
  int mount_id = 0;
  if (name_to_handle_at(AT_FDCWD, path.c_str(), &handle.head, &mount_id, 0) != 0 ||
      handle.head.handle_type != kFileidKernfs || handle.head.handle_bytes != sizeof(uint64_t))
    return inode;
  uint64_t id = 0;
  std::memcpy(&id, handle.head.f_handle, sizeof id);
  return id;
}

}  // namespace

// A cgroup v2 group's id is its directory's inode number in the cgroup2 file system (the
// kernfs node id, what bpf_get_current_cgroup_id() returns for a task in it).
void Checker::call_cgroupid(Expr& e) {
  call_generic(e);
  if (e.type.kind == TypeKind::None) return;
  const std::string& path = e.operands[0]->str;
  struct statfs fs {};
  struct stat st {};
  if (statfs(path.c_str(), &fs) != 0 || stat(path.c_str(), &st) != 0)
    return error(e.span, "cgroupid(\"" + path + "\"): " + std::strerror(errno) +
                             ": give the path of a cgroup v2 directory, e.g. /sys/fs/cgroup/system.slice");
  if (fs.f_type != kCgroup2Magic || !S_ISDIR(st.st_mode))
    return error(e.span, "cgroupid(\"" + path + "\"): not a directory of a cgroup v2 file system (cgroup2): "
                         "mount it (mount -t cgroup2 none /sys/fs/cgroup) and give a group's directory there");
  e.kind = ExprKind::Integer;
  e.int_value = kernfs_node_id(path, st.st_ino);
  e.type = Type::integer(8, false);
}

void Checker::call_nsecs(Expr& e) {
  if (!arg_count(e)) return;
  e.type = Type::integer(8, false);
  e.int_value = static_cast<uint64_t>(Clock::Monotonic);
  if (e.operands.empty()) return;
  const Expr& a = *e.operands[0];
  for (const auto& c : kClockNames)
    if (a.kind == ExprKind::Builtin && a.name == c.name) {
      e.int_value = static_cast<uint64_t>(c.clock);
      return;
    }
  error(a.span, "nsecs() takes a clock: monotonic, boot, tai or sw_tai" +
                    std::string(a.kind == ExprKind::Builtin ? " ('" + a.name + "' is none of them)" : ""));
}

// pid(curr_ns), pid(init), tid(...): which pid namespace sees the id; Expr::int_value is 1
// for the initial one. Bare pid and tid, and pid(), are curr_ns's, as in bpftrace 0.22 on.
void Checker::call_task_id(Expr& e) {
  if (!arg_count(e)) return;
  e.type = Type::integer(8, false);
  e.int_value = 0;
  if (e.operands.empty()) return;
  const Expr& a = *e.operands[0];
  if (a.kind == ExprKind::Builtin && (a.name == "curr_ns" || a.name == "init")) {
    e.int_value = a.name == "init";
    return;
  }
  error(a.span, e.name + "() takes a pid namespace: curr_ns (rawprobe's, the default) or init (the initial one)");
}

}  // namespace rawprobe::lang
