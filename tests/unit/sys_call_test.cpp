// The choke point (engine/sys/call.h) with calls that need no privileges: the trace sink sees
// each real call with its real result, and errors carry the label, errno and hint. ProcMem
// (engine/sys/proc_mem.h) works on this test's own memory, /proc/self/mem.
#include <doctest/doctest.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "engine/sys/call.h"
#include "engine/sys/decode.h"
#include "engine/sys/errors.h"
#include "engine/sys/perf.h"
#include "engine/sys/proc_mem.h"
#include "tests/unit/sys_fixture.h"
#include "tests/unit/sys_trace_support.h"

using namespace rawprobe;
using namespace rawprobe::sys;

namespace {

using testing::hex_of;
using testing::TraceCapture;

uint64_t address_of(const volatile uint16_t* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

}  // namespace

TEST_CASE("a real tracefs-style write is executed, traced with its byte count, and appended") {
  testing::TempTree tree;
  tree.write("/events", "first\n");
  TraceCapture trace;
  TracefsWrite call{tree.path("/events"), "second\n"};
  Outcome out = invoke(call);
  CHECK(out.ok());
  CHECK(out.ret == 7);
  CHECK(tree.read("/events") == "first\nsecond\n");  // appended, never truncated
  REQUIRE(trace.lines.size() == 1);
  CHECK(trace.lines[0] == describe_request(call) + " = 7");
}

TEST_CASE("a failing real call reports its errno to the trace and in the Error") {
  TraceCapture trace;
  IoctlCall call{-1, PERF_EVENT_IOC_ENABLE, 0};
  Outcome out = invoke(call);
  CHECK_FALSE(out.ok());
  CHECK(out.err == EBADF);
  REQUIRE(trace.lines.size() == 1);
  CHECK(trace.lines[0].find("= -1 " + errno_name(EBADF)) != std::string::npos);
  Error e = call_error("enable perf event", call, out, "perf fd -1");
  CHECK(e.syscall == call_label(call));
  CHECK(e.err == EBADF);
  CHECK(!e.hint.empty());
  CHECK(e.message().find(errno_name(EBADF)) != std::string::npos);
}

TEST_CASE("tracing off: nothing is reported") {
  set_trace_sink({});
  CHECK_FALSE(tracing());
  Outcome out = invoke(IoctlCall{-1, PERF_EVENT_IOC_DISABLE, 0});
  CHECK(out.err == EBADF);
}

TEST_CASE("errno hints translate the known errnos for the call that got them") {
  BpfCall load{BPF_PROG_LOAD, nullptr, 0};
  CHECK(errno_hint(load, EPERM).find("CAP_BPF+CAP_PERFMON") != std::string::npos);
  CHECK(errno_hint(load, EACCES).find("verifier") != std::string::npos);
  CHECK(errno_hint(load, E2BIG).find("too large") != std::string::npos);
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  PerfOpenCall open{&attr, -1, -1, -1, 0};
  CHECK(errno_hint(open, EILSEQ) == "offset is not on an instruction boundary");
  // x86 uprobes inside an instruction: undecodable (ENOEXEC) or not probe-able (ENOTSUPP 524).
  CHECK(errno_hint(open, ENOEXEC).find("instruction boundary") != std::string::npos);
  CHECK(errno_hint(open, 524).find("instruction boundary") != std::string::npos);
  CHECK(errno_hint(open, ENOENT).find("tracepoint") != std::string::npos);
  CHECK(errno_hint(open, EINVAL).find("pid=-1 with cpu=-1") != std::string::npos);
  union bpf_attr link;
  std::memset(&link, 0, sizeof link);
  link.link_create.attach_type = BPF_PERF_EVENT;
  CHECK(errno_hint(BpfCall{BPF_LINK_CREATE, &link, sizeof link}, EINVAL).find("5.15") != std::string::npos);
}

TEST_CASE("perf_attr_size is the smallest published size covering every set field") {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.type = PERF_TYPE_TRACEPOINT;
  CHECK(perf_attr_size(attr) == PERF_ATTR_SIZE_VER0);
  attr.config2 = 1;  // the field VER1 added
  CHECK(perf_attr_size(attr) == PERF_ATTR_SIZE_VER1);
  CHECK(offsetof(perf_event_attr, config2) + sizeof attr.config2 == PERF_ATTR_SIZE_VER1);
  attr.sample_regs_user = 1;
  CHECK(perf_attr_size(attr) == PERF_ATTR_SIZE_VER3);
}

TEST_CASE("ProcMem::add_u16 increments and decrements a u16 in a process's memory, traced") {
  REQUIRE(host_root().empty());
  Result<ProcMem> mem = ProcMem::open(::getpid());
  REQUIRE_MESSAGE(mem.ok(), (mem.ok() ? "" : mem.error().message()));
  CHECK(mem->path() == "/proc/" + std::to_string(::getpid()) + "/mem");

  const uint16_t start = 41;
  volatile uint16_t semaphore = start;
  const uint64_t address = address_of(&semaphore);
  TraceCapture trace;
  Result<uint16_t> up = mem->add_u16(address, 1, "increment");
  REQUIRE_MESSAGE(up.ok(), (up.ok() ? "" : up.error().message()));
  CHECK(*up == start + 1);
  CHECK(semaphore == start + 1);  // written through the kernel, not through this variable
  Result<uint16_t> down = mem->add_u16(address, -1, "decrement");
  REQUIRE(down.ok());
  CHECK(*down == start);
  CHECK(semaphore == start);

  // Each call: pread64 of the value found, pwrite64 of the value put.
  REQUIRE(trace.lines.size() == 4);
  auto expect = [&](size_t i, const std::string& call, const std::string& value) {
    const std::string& line = trace.lines[i];
    INFO(line);
    // call(FD</proc/PID/mem>, [value], 2, address) = 2
    CHECK(line.rfind(call + "(", 0) == 0);
    const std::string rest = "<" + mem->path() + ">, " + value + ", 2, " + hex_of(address) + ") = 2";
    REQUIRE(line.size() > call.size() + 1 + rest.size());
    CHECK(line.substr(line.size() - rest.size()) == rest);
    const std::string fd = line.substr(call.size() + 1, line.size() - rest.size() - call.size() - 1);
    CHECK(fd.find_first_not_of("0123456789") == std::string::npos);
  };
  const std::string before = "[" + hex_of(start) + "]", after = "[" + hex_of(start + 1) + "]";
  expect(0, "pread64", before);  // found
  expect(1, "pwrite64", after);  // put
  expect(2, "pread64", after);
  expect(3, "pwrite64", before);
}

TEST_CASE("ProcMem::add_u16 at an unmapped address: the Error names pread64, EIO and a hint; nothing written") {
  Result<ProcMem> mem = ProcMem::open(::getpid());
  REQUIRE(mem.ok());
  TraceCapture trace;
  Result<uint16_t> r = mem->add_u16(0, 1, "increment the USDT semaphore at 0x0");
  REQUIRE_FALSE(r.ok());
  const Error& e = r.error();
  CHECK(e.what == "increment the USDT semaphore at 0x0");
  CHECK(e.syscall == "pread64(" + mem->path() + ")");
  CHECK(e.err == EIO);
  CHECK(e.object == mem->path());
  CHECK(!e.hint.empty());
  REQUIRE(trace.lines.size() == 1);  // the write is never tried
  CHECK(trace.lines[0].find("= -1 " + errno_name(EIO)) != std::string::npos);
}

TEST_CASE("ProcMem::add_u16 once the process has exited: 0 bytes read, an Error saying so") {
  volatile uint16_t semaphore = 1;  // the child's copy sits at the same address
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  Result<ProcMem> mem = ProcMem::open(child);
  ::kill(child, SIGKILL);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(mem.ok());
  TraceCapture trace;
  Result<uint16_t> r = mem->add_u16(address_of(&semaphore), -1, "decrement");
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().syscall == "pread64(" + mem->path() + ")");
  CHECK(r.error().err == 0);
  CHECK(r.error().hint == "the process has exited");
  REQUIRE(trace.lines.size() == 1);
  CHECK(trace.lines[0].substr(trace.lines[0].size() - 4) == " = 0");
}

TEST_CASE("ProcMem::open of a process that does not exist says so") {
  // pid_max is at most 2^22 (PID_MAX_LIMIT): this pid cannot exist.
  Result<ProcMem> mem = ProcMem::open((1 << 22) + 1);
  REQUIRE_FALSE(mem.ok());
  CHECK(mem.error().syscall == "open");
  CHECK(mem.error().err == ENOENT);
}
