// The kernel's kprobe blacklist: functions register_kprobe() refuses (NOKPROBE_SYMBOL,
// __kprobes, entry and noinstr text), which a wildcard must leave out and a probe by name
// must be refused for with a message that says so. The kernel lists them in one place only,
// debugfs: /sys/kernel/debug/kprobes/blacklist.
#pragma once
#include <set>
#include <string>
#include <utility>

namespace rawprobe::probes {

struct KprobeBlacklist {
  // {module, function}; module empty for vmlinux. The file prints a module's entry as
  // "0x...-0x...\tname [module]" and vmlinux's as "0x...-0x...\tname".
  std::set<std::pair<std::string, std::string>> entries;
  // Where it was read: the debugfs path, or "debugfs mounted privately" (below). Empty when
  // it could not be read; `why` then says what was tried.
  std::string source;
  std::string why;

  bool known() const { return !source.empty(); }
  bool contains(const std::string& module, const std::string& func) const {
    return entries.count({module, func}) > 0;
  }
};

// Lines of the blacklist file to entries.
KprobeBlacklist parse_kprobe_blacklist(const std::string& text);

// The blacklist of the running kernel (or of the fixture tree under sys::host_root()). When
// debugfs is not mounted at /sys/kernel/debug (a system without it in fstab, a container),
// it is mounted detached (in no directory; sys::DetachedMountCall) just long enough to read
// the file: the system's mount table never changes. Read once per host root and cached.
const KprobeBlacklist& kprobe_blacklist();

}  // namespace rawprobe::probes
