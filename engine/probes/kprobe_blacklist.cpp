#include "engine/probes/kprobe_blacklist.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "engine/base/result.h"
#include "engine/sys/fd.h"
#include "engine/sys/host_root.h"

namespace rawprobe::probes {
namespace {

constexpr const char* kDebugfs = "/sys/kernel/debug";
constexpr const char* kBlacklistFile = "/kprobes/blacklist";
// The file in the child's own debugfs mount (mount_and_copy), where no host root applies.
constexpr const char* kPrivateBlacklist = "/sys/kernel/debug/kprobes/blacklist";

// Where debugfs is mounted when it is not at /sys/kernel/debug (some systems mount it at
// /debug): the first debugfs line of /proc/self/mounts, or "".
std::string debugfs_elsewhere() {
  std::string mounts;
  if (!sys::read_text_file(sys::host_path("/proc/self/mounts"), mounts)) return {};
  std::istringstream in(mounts);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string device, dir, type;
    if (f >> device >> dir >> type && type == "debugfs" && dir != kDebugfs) return dir;
  }
  return {};
}

// The child's side of read_privately(). It runs between fork() and _exit(), so only
// async-signal-safe calls: the parent may have threads. On failure it writes the step that
// failed to `out` and exits with the errno.
[[noreturn]] void mount_and_copy(int out) {
  auto fail = [out](const char* step) {
    int e = errno;
    (void)!::write(out, step, std::strlen(step));
    ::_exit(e ? e : 1);
  };
  if (::unshare(CLONE_NEWNS) != 0) fail("unshare(CLONE_NEWNS)");
  // systemd makes / a shared mount: without this the debugfs mount below would propagate back
  // into the system's namespace.
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) fail("mount(/, MS_REC|MS_PRIVATE)");
  if (::mount("debugfs", kDebugfs, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
    fail("mount(debugfs, /sys/kernel/debug)");
  int fd = ::open(kPrivateBlacklist, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("open(/sys/kernel/debug/kprobes/blacklist)");
  char buf[16384];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) ::_exit(0);
    if (n < 0) fail("read(/sys/kernel/debug/kprobes/blacklist)");
    for (ssize_t done = 0; done < n;) {
      ssize_t w = ::write(out, buf + done, n - done);
      if (w <= 0) ::_exit(EPIPE);
      done += w;
    }
  }
}

// The blacklist text through a debugfs mount that only a child process sees: unshare a mount
// namespace, make it private, mount debugfs, copy the file into a pipe. Needs CAP_SYS_ADMIN,
// which attaching kprobes needs anyway.
Result<std::string> read_privately() {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return syscall_error("read the kprobe blacklist", "pipe2", errno);
  sys::Fd from_child(pipe_fds[0]), to_parent(pipe_fds[1]);
  pid_t child = ::fork();
  if (child < 0) return syscall_error("read the kprobe blacklist", "fork", errno);
  if (child == 0) {
    from_child.reset();
    mount_and_copy(to_parent.get());
  }
  to_parent.reset();  // the child's copy is the only writer: read() sees its end
  std::string text;
  char buf[16384];
  for (;;) {
    ssize_t n = ::read(from_child.get(), buf, sizeof buf);
    if (n > 0) text.append(buf, n);
    else if (n == 0 || errno != EINTR) break;
  }
  from_child.reset();
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {}
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return text;
  int err = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
  return syscall_error("mount debugfs privately", text.empty() ? "child process" : text, err, kDebugfs);
}

KprobeBlacklist load() {
  std::string text;
  std::string path = sys::host_path(kDebugfs) + kBlacklistFile;
  if (sys::read_text_file(path, text)) {
    KprobeBlacklist b = parse_kprobe_blacklist(text);
    b.source = path;
    return b;
  }
  std::string elsewhere = debugfs_elsewhere();
  if (!elsewhere.empty() && sys::read_text_file(sys::host_path(elsewhere) + kBlacklistFile, text)) {
    KprobeBlacklist b = parse_kprobe_blacklist(text);
    b.source = elsewhere + kBlacklistFile;
    return b;
  }
  KprobeBlacklist none;
  none.why = "cannot read " + path;
  // A fixture tree stands for a system whose debugfs is what the tree holds.
  if (!sys::host_root().empty()) return none;
  Result<std::string> privately = read_privately();
  if (!privately) {
    const Error& e = privately.error();
    none.why += ", and a private debugfs mount failed: " + e.syscall + ": " +
                (e.err ? errno_name(e.err) + " (" + std::strerror(e.err) + ")" : "no errno");
    return none;
  }
  KprobeBlacklist b = parse_kprobe_blacklist(*privately);
  b.source = std::string(kPrivateBlacklist) + " (debugfs mounted privately)";
  return b;
}

}  // namespace

KprobeBlacklist parse_kprobe_blacklist(const std::string& text) {
  KprobeBlacklist b;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string range, name, module;
    if (!(f >> range >> name)) continue;
    if (f >> module && module.size() > 2 && module.front() == '[' && module.back() == ']')
      module = module.substr(1, module.size() - 2);
    else
      module.clear();
    b.entries.insert({module, name});
  }
  return b;
}

const KprobeBlacklist& kprobe_blacklist() { return sys::once_per_host_root<KprobeBlacklist>([] { return load(); }); }

}  // namespace rawprobe::probes
