// --trace-syscalls decoding (engine/sys/decode.h) of attrs built the way the wrappers build
// them. Expected names come from the uapi headers (stringified enumerators), numbers from the
// attr the test filled in.
#include <doctest/doctest.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <string>
#include <sys/mount.h>

#include "engine/sys/decode.h"
#include "engine/sys/errors.h"
#include "engine/sys/pmu.h"
#include "engine/sys/uapi_compat.h"
#include "tests/unit/sys_fixture.h"
#include "tests/unit/sys_trace_support.h"

using namespace rawprobe;
using namespace rawprobe::sys;

#define NAME(x) std::string(#x)

namespace {

bool has(const std::string& text, const std::string& part) {
  bool found = text.find(part) != std::string::npos;
  if (!found) MESSAGE("'" << part << "' not in: " << text);
  return found;
}

union bpf_attr zeroed() {
  union bpf_attr a;
  std::memset(&a, 0, sizeof a);
  return a;
}

using testing::hex_of;

}  // namespace

TEST_CASE("MAP_CREATE shows map type, sizes, max entries, name and the fd") {
  union bpf_attr a = zeroed();
  a.map_type = BPF_MAP_TYPE_ARRAY;
  a.key_size = 4;
  a.value_size = 8;
  a.max_entries = 3;
  std::strcpy(a.map_name, "counts");
  std::string line = describe_call(BpfCall{BPF_MAP_CREATE, &a, sizeof a}, Outcome{5, 0});
  CHECK(line.rfind("bpf(" + NAME(BPF_MAP_CREATE) + ", {", 0) == 0);
  CHECK(has(line, "map_type=" + NAME(BPF_MAP_TYPE_ARRAY)));
  CHECK(has(line, "key_size=" + std::to_string(a.key_size)));
  CHECK(has(line, "value_size=" + std::to_string(a.value_size)));
  CHECK(has(line, "max_entries=" + std::to_string(a.max_entries)));
  CHECK(has(line, "map_name=\"counts\""));
  CHECK(has(line, ", " + std::to_string(sizeof a) + ") = 5"));
}

TEST_CASE("MAP_CREATE names the map flags set, and shows unnamed bits in hex") {
  union bpf_attr a = zeroed();
  a.map_type = BPF_MAP_TYPE_HASH;
  std::strcpy(a.map_name, "m");  // a field after map_flags, so each check sees where it ends
  CHECK(has(describe_request(BpfCall{BPF_MAP_CREATE, &a, sizeof a}), "map_flags=0,"));
  a.map_flags = BPF_F_NO_PREALLOC;
  CHECK(has(describe_request(BpfCall{BPF_MAP_CREATE, &a, sizeof a}), "map_flags=" + NAME(BPF_F_NO_PREALLOC) + ","));
  a.map_flags = BPF_F_NO_PREALLOC | BPF_F_RDONLY_PROG | (1u << 30);
  CHECK(has(describe_request(BpfCall{BPF_MAP_CREATE, &a, sizeof a}),
            "map_flags=" + NAME(BPF_F_NO_PREALLOC) + "|" + NAME(BPF_F_RDONLY_PROG) + "|0x40000000,"));
}

TEST_CASE("PROG_LOAD shows prog type, insn count, license, log settings and an errno") {
  union bpf_attr a = zeroed();
  const char* license = "GPL";
  a.prog_type = BPF_PROG_TYPE_KPROBE;
  a.insn_cnt = 7;
  a.license = reinterpret_cast<uintptr_t>(license);
  a.log_level = 1;
  a.log_size = 65536;
  a.expected_attach_type = uapi::kTraceUprobeMulti;
  std::string line = describe_call(BpfCall{BPF_PROG_LOAD, &a, sizeof a}, Outcome{-1, EACCES});
  CHECK(has(line, "prog_type=" + NAME(BPF_PROG_TYPE_KPROBE)));
  CHECK(has(line, "insn_cnt=" + std::to_string(a.insn_cnt)));
  CHECK(has(line, "license=\"GPL\""));
  CHECK(has(line, "log_level=1"));
  CHECK(has(line, "log_size=" + std::to_string(a.log_size)));
  CHECK(has(line, "expected_attach_type=BPF_TRACE_UPROBE_MULTI"));
  CHECK(has(line, "= -1 " + errno_name(EACCES) + " (" + std::strerror(EACCES) + ")"));
}

TEST_CASE("a short attr is decoded as the kernel sees it: bytes past `size` read as zero") {
  union bpf_attr a = zeroed();
  a.map_type = BPF_MAP_TYPE_HASH;
  a.max_entries = 99;  // beyond the size passed below
  uint32_t size = offsetof(union bpf_attr, max_entries);
  std::string line = describe_request(BpfCall{BPF_MAP_CREATE, &a, size});
  CHECK(has(line, "max_entries=0"));
}

TEST_CASE("LINK_CREATE of uprobe_multi shows path, offsets, semaphores, cookies and pid") {
  union {
    union bpf_attr attr;
    uapi::LinkCreateUprobeMulti m;
  } u;
  std::memset(&u, 0, sizeof u);
  std::string path = "/usr/bin/true";
  uint64_t offsets[2] = {0x1139, 0x1150};
  uint64_t refs[2] = {0x4038, 0x4038};
  u.m.prog_fd = 3;
  u.m.attach_type = uapi::kTraceUprobeMulti;
  u.m.path = reinterpret_cast<uintptr_t>(path.c_str());
  u.m.offsets = reinterpret_cast<uintptr_t>(offsets);
  u.m.ref_ctr_offsets = reinterpret_cast<uintptr_t>(refs);
  u.m.cnt = 2;
  u.m.pid = 1234;
  std::string line = describe_request(BpfCall{BPF_LINK_CREATE, &u, sizeof u.m});
  CHECK(has(line, "uprobe_multi.path=\"" + path + "\""));
  CHECK(has(line, "uprobe_multi.offsets=[0x1139, 0x1150]"));
  CHECK(has(line, "uprobe_multi.ref_ctr_offsets=[0x4038, 0x4038]"));
  CHECK(has(line, "uprobe_multi.cookies=NULL"));
  CHECK(has(line, "uprobe_multi.pid=1234"));
}

TEST_CASE("LINK_CREATE of kprobe_multi shows the symbol names") {
  union bpf_attr a = zeroed();
  const char* syms[] = {"vfs_read", "vfs_write"};
  a.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
  a.link_create.kprobe_multi.cnt = 2;
  a.link_create.kprobe_multi.syms = reinterpret_cast<uintptr_t>(syms);
  std::string line = describe_request(BpfCall{BPF_LINK_CREATE, &a, sizeof a});
  CHECK(has(line, "attach_type=" + NAME(BPF_TRACE_KPROBE_MULTI)));
  CHECK(has(line, "kprobe_multi.syms=[\"vfs_read\", \"vfs_write\"]"));
}

TEST_CASE("PROG_TEST_RUN shows what the kernel wrote back") {
  union bpf_attr a = zeroed();
  a.test.prog_fd = 4;
  a.test.repeat = 1;
  a.test.retval = 42;  // as if written by the kernel
  std::string line = describe_call(BpfCall{BPF_PROG_TEST_RUN, &a, sizeof a}, Outcome{0, 0});
  CHECK(has(line, "= 0 => {retval=42"));
}

TEST_CASE("perf_event_open of a uprobe shows the PMU, path, offset, ref_ctr_offset, pid and cpu") {
  testing::TempTree tree;
  tree.write_probe_pmu("uprobe", 4712);
  tree.activate();
  Result<Pmu> pmu = read_pmu("uprobe");
  REQUIRE(pmu);

  std::string path = "/work/fun";
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  a.type = pmu->type;
  a.size = PERF_ATTR_SIZE_VER1;
  uint64_t semaphore = 0x4038;
  a.config = pmu->ref_ctr_offset.place(semaphore) | pmu->retprobe.place(1);
  a.config1 = reinterpret_cast<uintptr_t>(path.c_str());
  a.config2 = 0x1139;
  a.disabled = 1;
  std::string line = describe_call(PerfOpenCall{&a, 321, -1, -1, PERF_FLAG_FD_CLOEXEC}, Outcome{6, 0});
  CHECK(has(line, "type=4712 /* uprobe */"));
  CHECK(has(line, "size=" + std::to_string(PERF_ATTR_SIZE_VER1)));
  CHECK(has(line, "retprobe=1"));
  CHECK(has(line, "ref_ctr_offset=0x4038"));
  CHECK(has(line, "config1=\"/work/fun\""));
  CHECK(has(line, "config2=0x1139"));
  CHECK(has(line, "flags=disabled"));
  CHECK(has(line, "pid=321, cpu=-1, group_fd=-1, flags=" + NAME(PERF_FLAG_FD_CLOEXEC) + ") = 6"));
}

TEST_CASE("perf_event_open of a tracepoint and of a software clock") {
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  a.type = PERF_TYPE_TRACEPOINT;
  a.config = 731;
  std::string line = describe_request(PerfOpenCall{&a, -1, 0, -1, 0});
  CHECK(has(line, "type=" + NAME(PERF_TYPE_TRACEPOINT)));
  CHECK(has(line, "config=731 /* tracepoint id */"));

  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_CPU_CLOCK;
  a.freq = 1;
  a.sample_freq = 99;
  line = describe_request(PerfOpenCall{&a, -1, 0, -1, 0});
  CHECK(has(line, "config=" + NAME(PERF_COUNT_SW_CPU_CLOCK)));
  CHECK(has(line, "sample_freq=99"));
}

TEST_CASE("ioctl and tracefs writes") {
  std::string line = describe_call(IoctlCall{5, PERF_EVENT_IOC_SET_BPF, 4}, Outcome{0, 0});
  CHECK(line == "ioctl(5, " + NAME(PERF_EVENT_IOC_SET_BPF) + ", 4) = 0");
  line = describe_call(TracefsWrite{"/t/uprobe_events", "p:rawprobe_1_0 /bin/x:0x10\n"}, Outcome{-1, EEXIST});
  CHECK(line == "write(\"/t/uprobe_events\", \"p:rawprobe_1_0 /bin/x:0x10\\n\") = -1 " + errno_name(EEXIST) +
                    " (" + std::strerror(EEXIST) + ")");
}

TEST_CASE("a USDT semaphore written through /proc/PID/mem: pread64/pwrite64 with fd<path>, value, size, address") {
  const int fd = 7;
  const std::string path = "/proc/1234/mem";
  const uint64_t address = 0x5566778899aa;
  uint16_t value = 0x2a;
  const std::string args_tail = ", " + std::to_string(sizeof value) + ", " + hex_of(address) + ")";
  const std::string prefix = "(" + std::to_string(fd) + "<" + path + ">, ";
  const long whole = static_cast<long>(sizeof value);

  // A write shows the value written.
  ProcMemCall write{ProcMemCall::Op::write, fd, path, address, &value};
  CHECK(describe_call(write, Outcome{whole, 0}) ==
        "pwrite64" + prefix + "[" + hex_of(value) + "]" + args_tail + " = " + std::to_string(whole));
  // A read that returned both bytes shows the value read.
  ProcMemCall read{ProcMemCall::Op::read, fd, path, address, &value};
  CHECK(describe_call(read, Outcome{whole, 0}) ==
        "pread64" + prefix + "[" + hex_of(value) + "]" + args_tail + " = " + std::to_string(whole));
  // A read that filled nothing shows the buffer's address: an error, or 0 bytes (the process
  // has exited), and the request before any result.
  const std::string buffer = hex_of(reinterpret_cast<uintptr_t>(&value));
  CHECK(describe_call(read, Outcome{-1, EIO}) == "pread64" + prefix + buffer + args_tail + " = -1 " +
                                                     errno_name(EIO) + " (" + std::strerror(EIO) + ")");
  CHECK(describe_call(read, Outcome{0, 0}) == "pread64" + prefix + buffer + args_tail + " = 0");
  CHECK(describe_request(read) == "pread64" + prefix + buffer + args_tail);
  // A failed write still shows what it tried to write.
  CHECK(describe_call(write, Outcome{-1, EPERM}) == "pwrite64" + prefix + "[" + hex_of(value) + "]" + args_tail +
                                                        " = -1 " + errno_name(EPERM) + " (" +
                                                        std::strerror(EPERM) + ")");
  CHECK(call_label(write) == "pwrite64(" + path + ")");
  CHECK(call_label(read) == "pread64(" + path + ")");
}

TEST_CASE("call_label is the short form errors carry") {
  CHECK(call_label(BpfCall{BPF_PROG_LOAD, nullptr, 0}) == "bpf(" + NAME(BPF_PROG_LOAD) + ")");
  CHECK(call_label(IoctlCall{1, PERF_EVENT_IOC_ENABLE, 0}) == "ioctl(" + NAME(PERF_EVENT_IOC_ENABLE) + ")");
}

TEST_CASE("mount of tracefs reads as strace prints it; its errors name the cause") {
  MountCall call{"nodev", "/sys/kernel/tracing", "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC};
  CHECK(describe_call(call, Outcome{0, 0}) ==
        "mount(\"nodev\", \"/sys/kernel/tracing\", \"tracefs\", " + NAME(MS_NOSUID) + "|" + NAME(MS_NODEV) + "|" +
            NAME(MS_NOEXEC) + ", NULL) = 0");
  CHECK(describe_call(call, Outcome{-1, EPERM}) ==
        describe_request(call) + " = -1 EPERM (" + std::strerror(EPERM) + ")");
  CHECK(call_label(call) == "mount(tracefs, /sys/kernel/tracing)");
  Error denied = call_error("find tracefs", call, Outcome{-1, EPERM}, call.target);
  CHECK(denied.hint == "mounting tracefs needs root (CAP_SYS_ADMIN in the host's user namespace)");
  CHECK(call_error("find tracefs", call, Outcome{-1, ENODEV}, call.target).hint ==
        "this kernel has no tracefs (built without CONFIG_TRACING)");
  MountCall debugfs{"nodev", "/sys/kernel/debug", "debugfs", 0};
  CHECK(describe_request(debugfs) == "mount(\"nodev\", \"/sys/kernel/debug\", \"debugfs\", 0, NULL)");
  CHECK(call_error("mount", debugfs, Outcome{-1, ENODEV}, debugfs.target).hint ==
        "this kernel has no debugfs (built without CONFIG_DEBUG_FS)");
}

TEST_CASE("a detached mount reads as its three calls; a kernel without them is named") {
  DetachedMountCall call{"debugfs"};
  CHECK(describe_call(call, Outcome{5, 0}) ==
        "fsmount(fsopen(\"debugfs\", " + NAME(FSOPEN_CLOEXEC) + ") + fsconfig(" + NAME(FSCONFIG_CMD_CREATE) +
            "), " + NAME(FSMOUNT_CLOEXEC) + ", " + NAME(MOUNT_ATTR_RDONLY) + "|" + NAME(MOUNT_ATTR_NOSUID) + "|" +
            NAME(MOUNT_ATTR_NODEV) + "|" + NAME(MOUNT_ATTR_NOEXEC) + ") = 5");
  CHECK(call_label(call) == "fsmount(debugfs)");
  CHECK(call_error("read", call, Outcome{-1, ENOSYS}, "").hint.find("before 5.2") != std::string::npos);
  CHECK(call_error("read", call, Outcome{-1, ENODEV}, "").hint ==
        "this kernel has no debugfs (built without CONFIG_DEBUG_FS)");
}
