// cgroupid("path"): the cgroup v2 id of the group at path, found when the script is checked
// (a constant in the program, as in bpftrace 0.17); nsecs(CLOCK), a timestamp of a named
// clock (bpftrace 0.26.1; bare nsecs stays a builtin); and pid(NS) and tid(NS), ids as a pid
// namespace sees them.
#include <sys/stat.h>
#include <sys/vfs.h>

#include <cerrno>
#include <cstring>

#include "engine/lang/clocks.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {
namespace {

constexpr long kCgroup2Magic = 0x63677270;  // CGROUP2_SUPER_MAGIC, <linux/magic.h>

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
  e.int_value = st.st_ino;
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
