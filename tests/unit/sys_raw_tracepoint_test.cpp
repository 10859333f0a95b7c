// sys::raw_tracepoint_open through the choke point, without privileges: the call is made for
// real on a program fd that is not open, so the kernel refuses it (EBADF as root, EPERM
// otherwise); what --trace-syscalls shows is the attr the wrapper built (the name as a
// string, the prog fd, the size up to prog_fd) and the errno the kernel returned.
#include <doctest/doctest.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <linux/bpf.h>
#include <string>
#include <vector>

#include "engine/sys/call.h"
#include "engine/sys/raw_tracepoint.h"

using namespace rawprobe;
using namespace rawprobe::sys;

TEST_CASE("BPF_RAW_TRACEPOINT_OPEN is traced with its name, prog fd and the kernel's errno") {
  std::vector<std::string> lines;
  set_trace_sink([&lines](const std::string& line) { lines.push_back(line); });
  constexpr int kNotOpen = 987;  // no fd of that number in a test process
  Result<Fd> fd = raw_tracepoint_open("sched_switch", kNotOpen);
  set_trace_sink({});

  REQUIRE(!fd);
  REQUIRE(lines.size() == 1);
  const Error& e = fd.error();
  CHECK(e.syscall == "bpf(BPF_RAW_TRACEPOINT_OPEN)");
  CHECK(e.object == "rawtracepoint:sched_switch");
  CHECK((e.err == EBADF || e.err == EPERM));
  // union bpf_attr's raw_tracepoint member: name (u64), prog_fd (u32), then 6.10's cookie,
  // which the wrapper leaves out of the size.
  uint32_t size = offsetof(union bpf_attr, raw_tracepoint.prog_fd) + sizeof(uint32_t);
  CHECK(lines[0] == "bpf(BPF_RAW_TRACEPOINT_OPEN, {name=\"sched_switch\", prog_fd=" + std::to_string(kNotOpen) +
                        "}, " + std::to_string(size) + ") = -1 " + errno_name(e.err) + " (" +
                        std::strerror(e.err) + ")");
}
