#include "engine/sys/bpffs.h"

#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "engine/sys/bpf_call.h"
#include "engine/sys/errors.h"

namespace rawprobe::sys {
namespace {

std::string directory_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

bool on_bpffs(const std::string& dir) {
  struct statfs fs;
  return ::statfs(dir.c_str(), &fs) == 0 && static_cast<unsigned long>(fs.f_type) == BPF_FS_MAGIC;
}

// /sys/fs/bpf with no bpffs on it (a container, a minimal init): mount one where every BPF
// tool looks for it, with systemd's flags.
Status mount_bpffs() {
  MountCall call{"bpf", kBpffsDir, "bpf", MS_NOSUID | MS_NODEV | MS_NOEXEC};
  Outcome out = invoke(call);
  if (!out.ok()) {
    Error e = call_error("pin to bpffs: it is not mounted at " + std::string(kBpffsDir) + ", and mounting it failed",
                         call, out, kBpffsDir);
    e.hint += (e.hint.empty() ? "" : "; ") + std::string("mount it as root: mount -t bpf bpf /sys/fs/bpf");
    return e;
  }
  std::fprintf(stderr, "rawprobe: bpffs was not mounted; mounted it at %s (left mounted: umount %s undoes it)\n",
               kBpffsDir, kBpffsDir);
  return {};
}

std::string exists_hint(const std::string& path) {
  return "a file is already pinned there: remove it (rm " + path + ") or give another name";
}

}  // namespace

Status check_pin_path(const std::string& path, const std::string& object) {
  std::string dir = directory_of(path);
  if (!on_bpffs(dir) && dir != kBpffsDir)
    return make_error("pin " + object + ": " + dir + " is not on bpffs", path,
                      "pin under /sys/fs/bpf (a name without '/' goes there), or mount bpffs: mount -t bpf bpf " + dir);
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) return make_error("pin " + object + ": " + path + " exists", path, exists_hint(path));
  return {};
}

Status pin_object(int fd, const std::string& path, const std::string& object) {
  if (Status s = check_pin_path(path, object); !s) return s;
  if (!on_bpffs(directory_of(path)))
    if (Status s = mount_bpffs(); !s) return s;
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.pathname = detail::ptr_to_u64(path.c_str());
  attr.bpf_fd = static_cast<uint32_t>(fd);
  Status pinned = detail::bpf_status(BPF_OBJ_PIN, &attr, RAWPROBE_BPF_ATTR_END(file_flags), "pin " + object + " to bpffs", path);
  if (!pinned) {
    Error e = pinned.error();
    if (e.err == EEXIST) e.hint = exists_hint(path);
    std::string dir = directory_of(path);
    if (e.err == ENOENT) e.hint = "the directory " + dir + " does not exist on bpffs: create it (mkdir -p " + dir + ")";
    return e;
  }
  return {};
}

}  // namespace rawprobe::sys
