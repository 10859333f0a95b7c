#include "engine/sys/call.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/arch.h"
#include "engine/sys/decode.h"

namespace rawprobe::sys {

namespace {

TraceSink& sink_storage() {
  static TraceSink sink;
  return sink;
}

// Syscall numbers come from arch/, not from <sys/syscall.h>: a static binary built on one
// host must not depend on that host's headers (DESIGN.md practice 9).
long raw_bpf(const BpfCall& c) {
  return ::syscall(arch::host().nr_bpf, c.cmd, c.attr, c.size);
}

long raw_perf_event_open(const PerfOpenCall& c) {
  return ::syscall(arch::host().nr_perf_event_open, c.attr, c.pid, c.cpu, c.group_fd, c.flags);
}

long raw_ioctl(const IoctlCall& c) { return ::ioctl(c.fd, c.request, c.arg); }

long raw_tracefs_write(const TracefsWrite& c) {
  int fd = ::open(c.path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return -1;
  long n = ::write(fd, c.line.data(), c.line.size());
  int saved = errno;
  ::close(fd);
  errno = saved;
  return n;
}

long raw_proc_mem(const ProcMemCall& c) {
  off_t offset = static_cast<off_t>(c.address);
  if (c.op == ProcMemCall::Op::read) return ::pread(c.fd, c.value, sizeof *c.value, offset);
  return ::pwrite(c.fd, c.value, sizeof *c.value, offset);
}

long raw_mount(const MountCall& c) {
  return ::mount(c.source.c_str(), c.target.c_str(), c.fstype.c_str(), c.flags, nullptr);
}

long raw_detached_mount(const DetachedMountCall& c) {
  const arch::Table& host = arch::host();
  long fs = ::syscall(host.nr_unified(430), c.fstype.c_str(), FSOPEN_CLOEXEC);  // fsopen
  if (fs < 0) return -1;
  long mnt = ::syscall(host.nr_unified(431), fs, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0);  // fsconfig
  if (mnt >= 0)
    mnt = ::syscall(host.nr_unified(432), fs, FSMOUNT_CLOEXEC,  // fsmount
                    MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
  int saved = errno;
  ::close(int(fs));
  errno = saved;
  return mnt;
}

// The kernel's struct open_how (include/uapi/linux/openat2.h), spelled here so the build
// does not depend on the build host's headers having it.
struct OpenHow {
  uint64_t flags, mode, resolve;
};

long raw_openat2(const Openat2Call& c) {
  OpenHow how{c.flags, 0, c.resolve};
  return ::syscall(arch::host().nr_unified(437), c.dirfd, c.path.c_str(), &how, sizeof how);  // openat2
}

struct Executor {
  long operator()(const BpfCall& c) const { return raw_bpf(c); }
  long operator()(const PerfOpenCall& c) const { return raw_perf_event_open(c); }
  long operator()(const IoctlCall& c) const { return raw_ioctl(c); }
  long operator()(const TracefsWrite& c) const { return raw_tracefs_write(c); }
  long operator()(const ProcMemCall& c) const { return raw_proc_mem(c); }
  long operator()(const MountCall& c) const { return raw_mount(c); }
  long operator()(const DetachedMountCall& c) const { return raw_detached_mount(c); }
  long operator()(const Openat2Call& c) const { return raw_openat2(c); }
};

}  // namespace

Outcome invoke(const Call& call) {
  errno = 0;
  long ret = std::visit(Executor{}, call);
  Outcome out{ret, ret < 0 ? errno : 0};
  if (ret < 0 && out.err == 0) out.err = EIO;  // never report a failure without a cause
  if (const TraceSink& sink = sink_storage()) sink(describe_call(call, out));
  errno = out.err;
  return out;
}

void set_trace_sink(TraceSink sink) { sink_storage() = std::move(sink); }

void trace_to_stderr() {
  set_trace_sink([](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); });
}

bool tracing() { return static_cast<bool>(sink_storage()); }

}  // namespace rawprobe::sys
