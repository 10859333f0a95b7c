#include "engine/sys/tracefs.h"

#include <fcntl.h>

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <sstream>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/sys/call.h"
#include "engine/sys/capabilities.h"
#include "engine/sys/errors.h"
#include "engine/sys/host_root.h"

namespace rawprobe::sys {

namespace {

bool is_dir(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

const char* control_file(DynamicKind kind) {
  return kind == DynamicKind::uprobe ? "/uprobe_events" : "/kprobe_events";
}
const char* default_group(DynamicKind kind) { return kind == DynamicKind::uprobe ? "uprobes" : "kprobes"; }

Status write_line(const std::string& path, const std::string& line, const char* what,
                  const std::string& object) {
  TracefsWrite call{path, line + "\n"};
  Outcome out = invoke(call);
  if (!out.ok()) return call_error(what, call, out, object);
  return {};
}

Result<std::string> event_file(const std::string& category, const std::string& name, const char* file) {
  Result<std::string> dir = tracefs_dir();
  if (!dir) return dir.error();
  std::string path = *dir + "/events/" + category + "/" + name + "/" + file;
  std::string text;
  if (!read_text_file(path, text))
    return read_file_error("read tracepoint " + std::string(file), path, category + ":" + name, errno,
                           "no such tracepoint; list them with: rawprobe -l 'tracepoint:*'");
  return text;
}

}  // namespace

std::string dynamic_event_line(bool retprobe, uint32_t maxactive, const std::string& name,
                               const std::string& probe) {
  std::string type = retprobe ? "r" : "p";
  if (retprobe && maxactive > 0) type += std::to_string(maxactive);
  return type + ":" + name + " " + probe;
}

std::string mounted_tracefs_dir() {
  // /sys/kernel/tracing exists since 4.1; before that tracefs lived inside debugfs (and
  // debugfs still shows it there, as an automount, on every later kernel).
  for (const char* candidate : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
    std::string dir = host_path(candidate);
    if (is_dir(dir + "/events")) return dir;
  }
  return {};
}

namespace {

constexpr const char* kTracefsMount = "/sys/kernel/tracing";
constexpr const char* kDebugfsMount = "/sys/kernel/debug";
constexpr const char* kMountHowTo = "mount it as root: mount -t tracefs nodev /sys/kernel/tracing";

// Mounts `fstype` at `target` as systemd does (nosuid, nodev, noexec), then checks that
// `events_dir` appeared. The mount stays: see mount_tracefs.
Result<std::string> mount_at(const char* fstype, const char* target, const std::string& tracing_dir) {
  MountCall call{"nodev", target, fstype, MS_NOSUID | MS_NODEV | MS_NOEXEC};
  Outcome out = invoke(call);
  if (!out.ok()) {
    Error e = call_error("find tracefs: it is not mounted, and mounting it failed", call, out, target);
    e.hint += (e.hint.empty() ? "" : "; ") + std::string(kMountHowTo);
    return e;
  }
  if (!is_dir(tracing_dir + "/events"))
    return make_error("find tracefs: " + std::string(fstype) + " mounted at " + target + " but " + tracing_dir +
                          "/events is missing",
                      target, "is this kernel built with CONFIG_TRACING (and CONFIG_EVENT_TRACING)?");
  if (tracing_dir == target)
    std::fprintf(stderr, "rawprobe: tracefs was not mounted; mounted it at %s (left mounted: umount %s undoes it)\n",
                 target, target);
  else
    std::fprintf(stderr, "rawprobe: tracefs was not mounted and this kernel has no %s; mounted debugfs at %s "
                 "to use %s (left mounted: umount %s undoes it)\n", kTracefsMount, target, tracing_dir.c_str(), target);
  return tracing_dir;
}

// tracefs is missing: mount it where the kernel expects it, as trace-cmd (libtracefs) and perf
// do, and leave it there. The mount is the kernel's own view of its tracing state, not data of
// ours; leaving it makes the next run find it at once and lets the user read the events and
// dynamic probes rawprobe makes. Kernels before 4.1 have no /sys/kernel/tracing: there debugfs
// is mounted and tracefs used inside it. Never under a test's fixture root.
Result<std::string> mount_tracefs() {
  // Mounted but closed to this user (mode 0700, root's): the kernel's EACCES on a search
  // names the capability, where a mount attempt would only add EBUSY or EPERM.
  if (faccessat(AT_FDCWD, host_path(kTracefsMount).c_str(), X_OK, AT_EACCESS) != 0 && errno == EACCES)
    return missing_capability(Capability::dac_read_search, "reading tracefs (" + host_path(kTracefsMount) + ")",
                              "cap_dac_read_search");
  if (!host_root().empty())
    return make_error("find tracefs", host_path(kTracefsMount), kMountHowTo);
  if (is_dir(kTracefsMount)) return mount_at("tracefs", kTracefsMount, kTracefsMount);
  if (!is_dir(kDebugfsMount))
    return make_error("find tracefs: neither " + std::string(kTracefsMount) + " nor " + kDebugfsMount + " exists",
                      kTracefsMount, "is sysfs mounted at /sys? (mount -t sysfs sysfs /sys)");
  return mount_at("debugfs", kDebugfsMount, std::string(kDebugfsMount) + "/tracing");
}

}  // namespace

Result<std::string> tracefs_dir() {
  return once_per_host_root<Result<std::string>>([]() -> Result<std::string> {
    std::string dir = mounted_tracefs_dir();
    if (!dir.empty()) return dir;
    return mount_tracefs();
  });
}

Result<uint32_t> tracepoint_id(const std::string& category, const std::string& name) {
  Result<std::string> text = event_file(category, name, "id");
  if (!text) return text.error();
  uint32_t id = 0;
  std::string_view s = *text;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), id);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    return make_error("parse tracepoint id '" + std::string(s) + "'", category + ":" + name);
  return id;
}

Result<std::string> tracepoint_format(const std::string& category, const std::string& name) {
  return event_file(category, name, "format");
}

std::string next_event_name() {
  static std::atomic<unsigned> counter{0};
  return "rawprobe_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
}

pid_t event_owner(const std::string& name) {
  constexpr std::string_view kPrefix = "rawprobe_";
  std::string_view s = name;
  if (s.substr(0, kPrefix.size()) != kPrefix) return -1;
  s.remove_prefix(kPrefix.size());
  size_t sep = s.find('_');
  if (sep == std::string_view::npos || sep == 0 || sep + 1 == s.size()) return -1;
  pid_t pid = -1;
  unsigned n = 0;
  auto r1 = std::from_chars(s.data(), s.data() + sep, pid);
  auto r2 = std::from_chars(s.data() + sep + 1, s.data() + s.size(), n);
  if (r1.ec != std::errc() || r1.ptr != s.data() + sep || r2.ec != std::errc() ||
      r2.ptr != s.data() + s.size() || pid <= 0)
    return -1;
  return pid;
}

Result<DynamicEvent> DynamicEvent::create(DynamicKind kind, bool retprobe, const std::string& probe,
                                          uint32_t maxactive) {
  if (maxactive > 0 && (kind != DynamicKind::kprobe || !retprobe))
    return make_error("define dynamic event with maxactive " + std::to_string(maxactive), probe,
                      "maxactive applies only to kretprobes");
  if (maxactive > kMaxActiveLimit)
    return make_error("define dynamic event with maxactive " + std::to_string(maxactive), probe,
                      "the kernel accepts a kretprobe maxactive from 1 to " + std::to_string(kMaxActiveLimit));
  Result<std::string> dir = tracefs_dir();
  if (!dir) return dir.error();
  DynamicEvent ev;
  ev.kind_ = kind;
  ev.name_ = next_event_name();
  ev.group_ = default_group(kind);
  std::string line = dynamic_event_line(retprobe, maxactive, ev.name_, probe);
  if (Status st = write_line(*dir + control_file(kind), line, "define dynamic event", probe); !st)
    return st.error();
  ev.live_ = true;
  return ev;
}

DynamicEvent::DynamicEvent(DynamicEvent&& other) noexcept
    : kind_(other.kind_), name_(std::move(other.name_)), group_(std::move(other.group_)), live_(other.live_) {
  other.live_ = false;
}

DynamicEvent& DynamicEvent::operator=(DynamicEvent&& other) noexcept {
  if (this != &other) {
    (void)remove();
    kind_ = other.kind_;
    name_ = std::move(other.name_);
    group_ = std::move(other.group_);
    live_ = other.live_;
    other.live_ = false;
  }
  return *this;
}

DynamicEvent::~DynamicEvent() { (void)remove(); }

Result<uint32_t> DynamicEvent::id() const { return tracepoint_id(group_, name_); }

Status DynamicEvent::remove() {
  if (!live_) return {};
  live_ = false;
  Result<std::string> dir = tracefs_dir();
  if (!dir) return dir.error();
  return write_line(*dir + control_file(kind_), "-:" + group_ + "/" + name_, "remove dynamic event", name_);
}

Result<std::vector<std::string>> remove_stale_events() {
  std::string dir = mounted_tracefs_dir();
  std::vector<std::string> removed;
  if (dir.empty()) return removed;
  for (DynamicKind kind : {DynamicKind::uprobe, DynamicKind::kprobe}) {
    std::string path = dir + control_file(kind);
    std::string text;
    if (!read_text_file(path, text)) continue;  // kernel without this kind of dynamic event
    std::istringstream lines(text);
    std::string line;
    // Each line: "p:uprobes/rawprobe_123_0 /bin/x:0x0000000000001139"
    while (std::getline(lines, line)) {
      size_t colon = line.find(':');
      size_t space = line.find(' ');
      if (colon == std::string::npos || space == std::string::npos || space < colon) continue;
      std::string event = line.substr(colon + 1, space - colon - 1);  // group/name
      size_t slash = event.find('/');
      std::string name = slash == std::string::npos ? event : event.substr(slash + 1);
      pid_t owner = event_owner(name);
      if (owner <= 0 || owner == ::getpid()) continue;
      if (is_dir(host_path("/proc/" + std::to_string(owner)))) continue;  // still running
      if (Status st = write_line(path, "-:" + event, "remove stale dynamic event", event); !st)
        return st.error();
      removed.push_back(event);
    }
  }
  return removed;
}

}  // namespace rawprobe::sys
