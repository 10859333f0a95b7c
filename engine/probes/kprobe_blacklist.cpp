#include "engine/probes/kprobe_blacklist.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "engine/base/result.h"
#include "engine/sys/call.h"
#include "engine/sys/errors.h"
#include "engine/sys/fd.h"
#include "engine/sys/host_root.h"

namespace rawprobe::probes {
namespace {

constexpr const char* kDebugfs = "/sys/kernel/debug";
constexpr const char* kBlacklistFile = "/kprobes/blacklist";

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

// The blacklist through a debugfs mount of our own that sits in no directory of any mount
// namespace (sys::DetachedMountCall): nothing else on the system sees it, and closing its fd
// ends it. Needs CAP_SYS_ADMIN, which attaching kprobes needs anyway.
Result<std::string> read_privately() {
  sys::DetachedMountCall call{"debugfs"};
  sys::Outcome out = sys::invoke(call);
  if (!out.ok()) return sys::call_error("mount debugfs privately", call, out, kDebugfs);
  sys::Fd mount(static_cast<int>(out.ret));
  // /proc/self/fd/N of a mount fd is the root of that mount.
  std::string path = "/proc/self/fd/" + std::to_string(mount.get()) + kBlacklistFile;
  std::string text;
  if (!sys::read_text_file(path, text))
    return syscall_error("read the kprobe blacklist", "open", errno ? errno : ENOENT,
                         std::string(kDebugfs) + kBlacklistFile);
  return text;
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
                (e.err ? errno_name(e.err) + " (" + std::strerror(e.err) + ")" : "no errno") +
                (e.hint.empty() ? "" : " (" + e.hint + ")");
    return none;
  }
  KprobeBlacklist b = parse_kprobe_blacklist(*privately);
  b.source = std::string(kDebugfs) + kBlacklistFile + " (debugfs mounted privately, detached)";
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
