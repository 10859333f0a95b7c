// The one choke point (DESIGN.md practice 9). Every bpf(), perf_event_open(), ioctl(),
// tracefs write, mount, read or write of a USDT semaphore in a traced process's memory, and
// openat2() inside a traced process's root rawprobe makes is described as a Call and executed
// by invoke(), which is the only code that issues those syscalls. Because the description IS
// the call (the attr pointer handed to the kernel), --trace-syscalls decodes exactly what the
// kernel saw.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <variant>

struct perf_event_attr;

namespace rawprobe::sys {

// bpf(cmd, attr, size)
struct BpfCall {
  int cmd;
  void* attr;  // union bpf_attr, zeroed, filled up to `size`
  uint32_t size;
};

// perf_event_open(attr, pid, cpu, group_fd, flags)
struct PerfOpenCall {
  perf_event_attr* attr;
  pid_t pid;
  int cpu;
  int group_fd;
  unsigned long flags;
};

// ioctl(fd, request, arg) on a perf event fd
struct IoctlCall {
  int fd;
  unsigned long request;
  unsigned long arg;
};

// One whole line appended to a tracefs control file (uprobe_events, kprobe_events): the
// file is opened O_WRONLY|O_APPEND (never O_TRUNC, which would delete every dynamic event on
// the system), written in one write(), and closed.
struct TracefsWrite {
  std::string path;
  std::string line;  // including the trailing '\n'
};

// pread64/pwrite64(fd, buf, 2, address) of one u16 in another process's memory, through its
// /proc/PID/mem (whose file offset is the address): a USDT semaphore incremented and
// decremented by rawprobe on kernels whose uprobes cannot count it (proc_mem.h). Both halves
// of the read-modify-write are calls, so the trace shows the value found and the value put.
struct ProcMemCall {
  enum class Op { read, write };
  Op op;
  int fd;            // open on `path`
  std::string path;  // "/proc/1234/mem", for the trace and errors
  uint64_t address;  // in that process
  uint16_t* value;   // what is written, or where the read lands
};

// mount(source, target, fstype, flags, NULL): a kernel filesystem (tracefs, debugfs) that
// rawprobe needs and finds unmounted.
struct MountCall {
  std::string source;  // "nodev"
  std::string target;  // "/sys/kernel/tracing"
  std::string fstype;  // "tracefs", "debugfs"
  unsigned long flags;
};

// fsopen(fstype) + fsconfig(FSCONFIG_CMD_CREATE) + fsmount(): a mount of a kernel filesystem
// that sits in no directory of any mount namespace. Only the returned fd reaches it, and it
// goes away when that fd is closed, so reading debugfs this way changes no one's mounts
// (kernel 5.2 on). Returns the mount's fd (O_PATH-like: openat() works below it).
struct DetachedMountCall {
  std::string fstype;  // "debugfs"
};

// openat2(dirfd, path, {flags, resolve}, 24): a file opened as seen from a directory that
// stands as its root (RESOLVE_IN_ROOT, 5.6): a traced container's files, through
// /proc/PID/root, where an absolute symlink or ".." must not lead to a host file.
struct Openat2Call {
  int dirfd;
  std::string dir;  // what dirfd is, for the trace and errors: "/proc/1234/root"
  std::string path;
  uint64_t flags;    // O_RDONLY|O_CLOEXEC
  uint64_t resolve;  // RESOLVE_IN_ROOT|RESOLVE_NO_MAGICLINKS
};

using Call = std::variant<BpfCall, PerfOpenCall, IoctlCall, TracefsWrite, ProcMemCall, MountCall,
                          DetachedMountCall, Openat2Call>;

// What a call returned: the syscall's value (an fd, 0, a byte count) or -1 with errno.
struct Outcome {
  long ret;
  int err;  // 0 on success
  bool ok() const { return ret >= 0; }
};

// Executes the call and, when tracing is on, reports it decoded.
Outcome invoke(const Call& call);

// --trace-syscalls: each executed call is passed, decoded as one strace-style line (without
// newline), to the sink. An empty sink turns tracing off.
using TraceSink = std::function<void(const std::string& line)>;
void set_trace_sink(TraceSink sink);
// The sink --trace-syscalls installs: one line per call on stderr.
void trace_to_stderr();
bool tracing();

}  // namespace rawprobe::sys
