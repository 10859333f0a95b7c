#include "engine/sys/rooted_open.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <deque>
#include <vector>

#include "engine/sys/call.h"
#include "engine/sys/errors.h"
#include "engine/sys/feature_probes.h"

namespace rawprobe::sys {
namespace {

constexpr uint64_t kResolveNoMagiclinks = 0x02;  // include/uapi/linux/openat2.h
constexpr uint64_t kResolveInRoot = 0x10;
constexpr int kMaxSymlinks = 40;  // the kernel's MAXSYMLINKS

Result<Fd> open_root(const std::string& root, const std::string& path) {
  Fd dir(::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir)
    return syscall_error("open a file inside " + root, "open", errno, path,
                         errno == ENOENT ? "the process has exited, or " + root + " does not exist" : "");
  return dir;
}

// The failure of a walk step, worded as openat2 would have been.
Error walk_error(const std::string& root, const std::string& path, int err) {
  Openat2Call as{-1, root, path, O_RDONLY | O_CLOEXEC, kResolveInRoot};
  return syscall_error("open a file inside " + root, "openat(" + root + ")", err, path, errno_hint(Call(as), err));
}

void push_components(std::deque<std::string>& queue, const std::string& path) {
  std::vector<std::string> parts;
  size_t at = 0;
  while (at <= path.size()) {
    size_t slash = path.find('/', at);
    if (slash == std::string::npos) slash = path.size();
    if (slash > at) parts.push_back(path.substr(at, slash - at));
    at = slash + 1;
  }
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) queue.push_front(*it);
}

}  // namespace

Result<Fd> open_in_root_by_walk(const std::string& root, const std::string& path) {
  Result<Fd> root_fd = open_root(root, path);
  if (!root_fd) return root_fd.error();
  // The directories walked through, the root first: ".." pops one and never the root.
  std::vector<Fd> chain;
  chain.push_back(std::move(*root_fd));
  std::deque<std::string> queue;
  push_components(queue, path);
  int links = 0;
  while (!queue.empty()) {
    std::string name = std::move(queue.front());
    queue.pop_front();
    if (name == ".") continue;
    if (name == "..") {
      if (chain.size() > 1) chain.pop_back();
      continue;
    }
    Fd step(::openat(chain.back().get(), name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    if (!step) return walk_error(root, path, errno);
    struct stat st;
    if (::fstat(step.get(), &st) != 0) return walk_error(root, path, errno);
    if (S_ISLNK(st.st_mode)) {
      if (++links > kMaxSymlinks) return walk_error(root, path, ELOOP);
      char target[4096];
      ssize_t n = ::readlinkat(step.get(), "", target, sizeof target - 1);
      if (n < 0) return walk_error(root, path, errno);
      std::string link(target, size_t(n));
      if (!link.empty() && link[0] == '/') chain.resize(1);  // absolute: from the root
      push_components(queue, link);
      continue;
    }
    if (queue.empty()) {
      // The component checked above, opened for reading; O_NOFOLLOW refuses a symlink swapped
      // in since (ELOOP) instead of following it out of the root.
      Fd file(::openat(chain.back().get(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
      if (!file) return walk_error(root, path, errno);
      return file;
    }
    if (!S_ISDIR(st.st_mode)) return walk_error(root, path, ENOTDIR);
    chain.push_back(std::move(step));
  }
  // The path named the root itself, or a directory through "..": a directory is no target.
  return walk_error(root, path, EISDIR);
}

FeatureState probe_openat2() {
  Fd root(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!root) return {false, "open(\"/\"): " + std::string(errno_name(errno))};
  Openat2Call call{root.get(), "/", ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC, kResolveInRoot | kResolveNoMagiclinks};
  Outcome out = invoke(call);
  if (!out.ok()) return {false, std::string(errno_name(out.err)) + " from openat2"};
  Fd opened(int(out.ret));
  return {true, "opened . beneath /"};
}

Result<Fd> open_in_root(const std::string& root, const std::string& path) {
  // The walk of kernels before 5.6, on this one (RAWPROBE_PRETEND_MISSING=openat2) to test it.
  // Not has(): its probe would be one more openat2 in every --trace-syscalls listing.
  if (pretended_missing(Feature::openat2)) return open_in_root_by_walk(root, path);
  Result<Fd> dir = open_root(root, path);
  if (!dir) return dir.error();
  Openat2Call call{dir->get(), root, path, O_RDONLY | O_CLOEXEC, kResolveInRoot | kResolveNoMagiclinks};
  Outcome out = invoke(call);
  if (out.ok()) return Fd(int(out.ret));
  // ENOSYS: a kernel before 5.6; E2BIG or EINVAL: a seccomp filter or kernel that knows
  // openat2 but not these fields.
  if (out.err == ENOSYS || out.err == E2BIG) return open_in_root_by_walk(root, path);
  return call_error("open a file inside " + root, call, out, path);
}

}  // namespace rawprobe::sys
