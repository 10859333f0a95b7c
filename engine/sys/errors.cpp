#include "engine/sys/errors.h"

#include <cerrno>
#include <linux/bpf.h>
#include <linux/perf_event.h>

#include "engine/sys/decode.h"
#include "engine/sys/pmu.h"
#include "engine/sys/uapi_compat.h"

namespace rawprobe::sys {

namespace {

constexpr const char* kNeedsPrivilege = "needs root or CAP_BPF+CAP_PERFMON";

// Kernel versions a link type needs, for EINVAL from BPF_LINK_CREATE.
std::string link_hint(const BpfCall& c) {
  const auto* attr = static_cast<const union bpf_attr*>(c.attr);
  uint32_t type = attr ? attr->link_create.attach_type : 0;
  if (type == BPF_PERF_EVENT) return "bpf_link for perf events needs Linux 5.15; fall back to PERF_EVENT_IOC_SET_BPF";
  if (type == BPF_TRACE_KPROBE_MULTI)
    return "kprobe_multi links need Linux 5.18 (CONFIG_FPROBE) and a program loaded with expected_attach_type BPF_TRACE_KPROBE_MULTI";
  if (type == uapi::kTraceUprobeMulti)
    return "uprobe_multi links need Linux 6.6 and a program loaded with expected_attach_type BPF_TRACE_UPROBE_MULTI";
  return "this kernel does not support this attach type for this program type";
}

std::string bpf_hint(const BpfCall& c, int err) {
  switch (err) {
    case EPERM: return kNeedsPrivilege;
    case EACCES:
      if (c.cmd == BPF_PROG_LOAD) return "the verifier rejected the program; its log says why";
      return kNeedsPrivilege;
    case E2BIG:
      if (c.cmd == BPF_PROG_LOAD)
        return "the program is too large for this kernel (4096 instructions before 5.2, 1M since)";
      return "the attr sets a field this (older) kernel does not know";
    case EINVAL:
      if (c.cmd == BPF_LINK_CREATE) return link_hint(c);
      // bpf_probe_register(): the highest context offset the program reads must lie within
      // the tracepoint's arguments (8 bytes each).
      if (c.cmd == BPF_RAW_TRACEPOINT_OPEN)
        return "the program reads an argument the tracepoint does not have (argN past the last "
               "parameter of its TP_PROTO), or is not a raw_tracepoint program";
      if (c.cmd == BPF_MAP_CREATE)
        return "map type, flags or sizes not supported by this kernel (ring buffers need 5.8 and a "
               "power-of-2 multiple of the page size)";
      if (c.cmd == BPF_PROG_LOAD)
        return "the kernel rejected the program type, attach type or flags, or the verifier "
               "rejected the program";
      return "";
    case ENOMEM:
      return "not enough memory for BPF objects: before 5.11 they count against RLIMIT_MEMLOCK "
             "(ulimit -l), since then against the cgroup's memory limit";
    case EBADF: return "a file descriptor in the attr is not open or not of the right kind";
    case ENOENT:
      if (c.cmd == BPF_RAW_TRACEPOINT_OPEN)
        return "no kernel tracepoint of this name (in vmlinux or a loaded module); list them with "
               "-l 'rawtracepoint:*'";
      return "";
    case ESRCH:
      if (c.cmd == BPF_LINK_CREATE) return "no such kernel function (kprobe_multi symbol)";
      return "";
    case EOPNOTSUPP:
    case kKernelEnotsupp:
    case ENOEXEC:
      // uprobe_multi registers every offset of the link; one the kernel's instruction decoder
      // refuses (x86: ENOTSUPP for e.g. a VEX-encoded AVX instruction, ENOEXEC for bytes it
      // cannot decode) fails the whole link, and the errno does not say which offset it was.
      if (c.cmd == BPF_LINK_CREATE && c.attr &&
          static_cast<const union bpf_attr*>(c.attr)->link_create.attach_type == uapi::kTraceUprobeMulti)
        return "the kernel cannot probe the instruction at one of the link's offsets (x86: e.g. a "
               "VEX-encoded AVX instruction at a function's start); --attach-mode=pmu attaches "
               "each point alone and names the file offset refused";
      if (err == ENOEXEC) return "";
      return "not supported by this kernel's configuration or for this program type";
    default: return "";
  }
}

// The perf_event_attr settings a kernel could reject, to name them on EINVAL.
std::string perf_features(const PerfOpenCall& c) {
  std::string out;
  auto add = [&out](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
  const perf_event_attr* a = c.attr;
  if (const Pmu* pmu = a ? pmu_by_type(a->type) : nullptr) {
    add("PMU '" + pmu->name + "' (type " + std::to_string(a->type) + ", needs 4.17)");
    if (pmu->retprobe.extract(a->config)) add("retprobe");
    if (pmu->ref_ctr_offset.extract(a->config)) add("ref_ctr_offset (needs 4.20)");
  } else if (a) {
    add("type " + std::to_string(a->type) + ", config " + std::to_string(a->config));
  }
  if (c.pid == -1 && c.cpu == -1) add("pid=-1 with cpu=-1 (not allowed: one must be set)");
  else if (c.pid != -1) add("pid filter " + std::to_string(c.pid));
  if (a && a->inherit) add("inherit");
  if (a && a->freq) add("sample_freq");
  return out;
}

std::string perf_hint(const PerfOpenCall& c, int err) {
  switch (err) {
    case EPERM:
    case EACCES: return std::string(kNeedsPrivilege) + " (or a lower kernel.perf_event_paranoid)";
    case EILSEQ: return "offset is not on an instruction boundary";
    // x86 uprobes refuse instructions they cannot single-step or emulate (hlt, in/out, ...)
    // with the kernel-internal ENOTSUPP; an offset inside an instruction often lands on one.
    case kKernelEnotsupp:
      return "the instruction at this offset cannot be probed (is the offset on an instruction "
             "boundary?)";
    // x86 uprobes: bytes the kernel's instruction decoder cannot decode at all
    // (arch/x86/kernel/uprobes.c uprobe_init_insn(): insn_decode() failed -> ENOEXEC).
    case ENOEXEC:
      return "the kernel cannot decode an instruction at this offset (is the offset on an "
             "instruction boundary?)";
    case ENOENT: return "no such tracepoint, PMU or probed file";
    case E2BIG: return "perf_event_attr is larger than this kernel knows";
    case EINVAL: return "the kernel rejected a perf_event_attr setting; in use: " + perf_features(c);
    case ESRCH: return "no process with pid " + std::to_string(c.pid);
    case EOPNOTSUPP: return "this PMU does not support the requested mode (e.g. sampling)";
    default: return "";
  }
}

std::string ioctl_hint(const IoctlCall& c, int err) {
  if (c.request == PERF_EVENT_IOC_SET_BPF) {
    if (err == EEXIST || err == EBUSY) return "a BPF program is already attached to this perf event";
    if (err == EINVAL) return "the program type does not match the perf event (kprobe programs for kprobe/uprobe events, tracepoint programs for tracepoints)";
  }
  if (err == EBADF) return "not an open perf event fd";
  return "";
}

std::string tracefs_hint(const TracefsWrite&, int err) {
  switch (err) {
    case ENOENT: return "no such tracefs file or probed binary/function (kernel built without CONFIG_UPROBE_EVENTS/CONFIG_KPROBE_EVENTS?)";
    case EEXIST: return "an event of this name already exists";
    case EBUSY: return "the event is still in use (attached by a running tracer)";
    case EPERM:
    case EACCES: return "writing tracefs needs root";
    case EINVAL: return "the kernel rejected the probe definition (see /sys/kernel/tracing/error_log)";
    case EILSEQ: return "offset is not on an instruction boundary";
    default: return "";
  }
}

// /proc/PID/mem (fs/proc/base.c mem_rw): the permission check is at open, so EACCES/EPERM
// here are rare; EIO is a read or write no byte of which the process's mm maps.
std::string proc_mem_hint(const ProcMemCall&, int err) {
  switch (err) {
    case EIO: return "nothing is mapped at this address in the process (did it unmap the binary?)";
    case EPERM:
    case EACCES: return "writing another process's memory needs root (or ptrace rights over it)";
    case EBADF: return "not an open /proc/PID/mem fd";
    default: return "";
  }
}

// mount(2) of a kernel filesystem: EPERM is a missing CAP_SYS_ADMIN (or a user namespace,
// where tracefs and debugfs cannot be mounted at all), ENODEV a kernel built without it.
std::string mount_hint(const MountCall& c, int err) {
  switch (err) {
    case EPERM:
    case EACCES: return "mounting " + c.fstype + " needs root (CAP_SYS_ADMIN in the host's user namespace)";
    case ENODEV: return "this kernel has no " + c.fstype + " (built without " +
                        (c.fstype == "debugfs" ? "CONFIG_DEBUG_FS" : c.fstype == "bpf" ? "CONFIG_BPF_SYSCALL" : "CONFIG_TRACING") + ")";
    case ENOENT:
    case ENOTDIR: return "the mount point " + c.target + " does not exist";
    case EROFS: return "the filesystem holding " + c.target + " is read-only";
    default: return "";
  }
}

// fsopen/fsconfig/fsmount: ENOSYS is a kernel before 5.2, which has no detached mounts.
std::string detached_mount_hint(const DetachedMountCall& c, int err) {
  switch (err) {
    case ENOSYS: return "this kernel (before 5.2) cannot mount " + c.fstype + " detached: mount it yourself (mount -t " +
                        c.fstype + " none /sys/kernel/debug)";
    case EPERM:
    case EACCES: return "mounting " + c.fstype + " needs root (CAP_SYS_ADMIN in the host's user namespace)";
    case ENODEV: return mount_hint(MountCall{"", "", c.fstype, 0}, err);
    default: return "";
  }
}

// openat2 inside a traced process's root: what each failure means for a path resolved there.
std::string openat2_hint(const Openat2Call& c, int err) {
  switch (err) {
    case ENOENT: {
      std::string hint = "no such file in that process's filesystem (symlinks and '..' were followed inside " +
                         c.dir + ", never out of it)";
      // /proc/PID/root: what the process itself sees there, from its mount namespace and root.
      const std::string proc = "/proc/", root = "/root";
      if (c.dir.rfind(proc, 0) == 0 && c.dir.size() > proc.size() + root.size() &&
          c.dir.compare(c.dir.size() - root.size(), root.size(), root) == 0)
        hint += "; see what it sees with: nsenter -t " +
                c.dir.substr(proc.size(), c.dir.size() - proc.size() - root.size()) + " -m -r ls -lL " + c.path;
      return hint;
    }
    case ELOOP: return "a symlink loop, or more than 40 symlinks, inside " + c.dir + ": check the links on that path";
    case ENOTDIR: return "a component of the path is not a directory inside " + c.dir;
    case EXDEV: return "the path changed while it was resolved (a rename inside that root); try again";
    case EACCES:
    case EPERM: return "reading another process's files needs root (CAP_SYS_PTRACE and CAP_DAC_READ_SEARCH)";
    default: return "";
  }
}

struct Hint {
  int err;
  std::string operator()(const BpfCall& c) const { return bpf_hint(c, err); }
  std::string operator()(const PerfOpenCall& c) const { return perf_hint(c, err); }
  std::string operator()(const IoctlCall& c) const { return ioctl_hint(c, err); }
  std::string operator()(const TracefsWrite& c) const { return tracefs_hint(c, err); }
  std::string operator()(const ProcMemCall& c) const { return proc_mem_hint(c, err); }
  std::string operator()(const MountCall& c) const { return mount_hint(c, err); }
  std::string operator()(const DetachedMountCall& c) const { return detached_mount_hint(c, err); }
  std::string operator()(const Openat2Call& c) const { return openat2_hint(c, err); }
};

}  // namespace

std::string errno_hint(const Call& call, int err) { return std::visit(Hint{err}, call); }

Error call_error(std::string what, const Call& call, const Outcome& outcome, std::string object) {
  return syscall_error(std::move(what), call_label(call), outcome.err, std::move(object),
                       errno_hint(call, outcome.err));
}

}  // namespace rawprobe::sys
