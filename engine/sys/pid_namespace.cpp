#include "engine/sys/pid_namespace.h"

#include <sys/stat.h>

#include <cerrno>

namespace rawprobe::sys {
namespace {

// include/linux/proc_ns.h: the initial namespaces' fixed inode numbers.
constexpr uint64_t kProcPidInitIno = 0xEFFFFFFC;

}  // namespace

Result<PidNamespace> own_pid_namespace() {
  struct stat st {};
  if (stat("/proc/self/ns/pid", &st) != 0)
    return syscall_error("find rawprobe's pid namespace", "stat /proc/self/ns/pid", errno);
  return PidNamespace{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino), st.st_ino == kProcPidInitIno};
}

}  // namespace rawprobe::sys
