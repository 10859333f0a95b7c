// tracefs: where it is, tracepoint ids and formats, and the legacy dynamic-event files
// (uprobe_events, kprobe_events) with DESIGN.md practice 10's hygiene: events are named
// rawprobe_<pid>_<n>, every definition and removal is one whole line in one write, an
// event is removed by its RAII owner on every path, and events left by dead rawprobe
// processes are removed at start (remove_stale_events).
#pragma once
#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

#include "engine/base/result.h"

namespace rawprobe::sys {

// Where tracefs is mounted: host_path("/sys/kernel/tracing"), else the older debugfs location
// host_path("/sys/kernel/debug/tracing"); "" when neither is mounted. Mounts nothing.
std::string mounted_tracefs_dir();

// The tracefs directory for work that needs it. When tracefs is not mounted, mounts it at
// /sys/kernel/tracing (or, on a kernel older than 4.1 without that directory, debugfs at
// /sys/kernel/debug) through the choke point, says so in one line on stderr, and leaves it
// mounted; an Error naming the mount's errno and the command to run when that fails (no
// privilege, no tracefs in the kernel). Found once and cached.
Result<std::string> tracefs_dir();

// events/<category>/<name>/id
Result<uint32_t> tracepoint_id(const std::string& category, const std::string& name);
// events/<category>/<name>/format, the text as the kernel prints it.
Result<std::string> tracepoint_format(const std::string& category, const std::string& name);

enum class DynamicKind { uprobe, kprobe };

// One definition line of kprobe_events/uprobe_events (Documentation/trace/kprobetrace.rst):
//   p:NAME PROBE              a probe
//   r:NAME PROBE              a return probe
//   r<MAXACTIVE>:NAME PROBE   a kretprobe with that many instances (kprobe_events only)
std::string dynamic_event_line(bool retprobe, uint32_t maxactive, const std::string& name,
                               const std::string& probe);

// A uprobe_events/kprobe_events entry owned by this process; destroying it removes it.
class DynamicEvent {
 public:
  // Defines the event. `probe` is the part after the name, e.g. "/bin/x:0x1139" or
  // "/bin/x:0x1139(0x4038)" (uprobe with semaphore), "vfs_read+0" (kprobe).
  // `maxactive` (kretprobe only; 0 = the kernel's default) is how many calls of the function
  // may be in flight at once before further returns go unseen: "r<N>:name probe" (the only
  // way to set it, since the kprobe PMU's perf_event_attr has no field for it). The kernel
  // takes 1..kMaxActiveLimit.
  static Result<DynamicEvent> create(DynamicKind kind, bool retprobe, const std::string& probe,
                                     uint32_t maxactive = 0);
  // KRETPROBE_MAXACTIVE_MAX in kernel/trace/trace_kprobe.c, where "r<N>:" appeared (Linux 4.12).
  static constexpr uint32_t kMaxActiveLimit = 4096;

  DynamicEvent(DynamicEvent&& other) noexcept;
  DynamicEvent& operator=(DynamicEvent&& other) noexcept;
  DynamicEvent(const DynamicEvent&) = delete;
  DynamicEvent& operator=(const DynamicEvent&) = delete;
  ~DynamicEvent();

  const std::string& name() const { return name_; }      // rawprobe_<pid>_<n>
  const std::string& group() const { return group_; }    // "uprobes" / "kprobes"
  // The tracepoint id to open it with (perf.h: open_tracepoint).
  Result<uint32_t> id() const;
  // Removes the event now; the destructor then does nothing.
  Status remove();

 private:
  DynamicEvent() = default;
  DynamicKind kind_ = DynamicKind::uprobe;
  std::string name_;
  std::string group_;
  bool live_ = false;
};

// rawprobe_<pid>_<n> of the current process, n counting up from 0.
std::string next_event_name();
// The pid in a rawprobe_<pid>_<n> name, or -1 if the name is not one of ours.
pid_t event_owner(const std::string& event_name);

// Removes rawprobe_<pid>_<n> events (in both files) whose pid is no longer running
// (no host_path("/proc/<pid>")). Returns the events removed as "group/name". Looks only at a
// mounted tracefs; it mounts nothing (a run that defines events mounts tracefs and leaves it
// mounted, so the next run finds what a killed one left).
Result<std::vector<std::string>> remove_stale_events();

}  // namespace rawprobe::sys
