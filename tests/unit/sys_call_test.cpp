// The choke point (engine/sys/call.h) with calls that need no privileges: the trace sink sees
// each real call with its real result, and errors carry the label, errno and hint.
#include <doctest/doctest.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <vector>

#include "engine/sys/call.h"
#include "engine/sys/decode.h"
#include "engine/sys/errors.h"
#include "engine/sys/perf.h"
#include "tests/unit/sys_fixture.h"

using namespace rawprobe;
using namespace rawprobe::sys;

namespace {

// Collects trace lines for the lifetime of the object.
struct TraceCapture {
  std::vector<std::string> lines;
  TraceCapture() {
    set_trace_sink([this](const std::string& line) { lines.push_back(line); });
  }
  ~TraceCapture() { set_trace_sink({}); }
};

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
