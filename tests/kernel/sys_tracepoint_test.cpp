// A second end-to-end path (issue 2): count syscalls:sys_enter_write for one pid while a
// helper process writes exactly K times; the helper reports how many writes it made.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <linux/bpf.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/sys/attach.h"
#include "engine/sys/perf.h"
#include "engine/sys/tracefs.h"
#include "tests/kernel/sys_support.h"

using namespace rawprobe;
using namespace rawprobe::sys;
using namespace rawprobe::sys::ktest;

namespace {

// Decided by the test; small enough to travel back as the helper's exit status.
constexpr int kWrites = 41;

// Forks a helper that waits on `go`, then calls write(2) kWrites times on /dev/null and
// exits with the number of writes that succeeded (its report; _exit itself does not write).
pid_t start_writer(const int go[2]) {
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::close(go[1]);  // only the parent holds the write end: its close is the release
  int go_read = go[0];
  char byte;
  while (::read(go_read, &byte, 1) < 0 && errno == EINTR) {
  }
  int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  int done = 0;
  for (int i = 0; i < kWrites; ++i)
    if (::write(fd, "x", 1) == 1) ++done;
  ::_exit(done);
}

}  // namespace

TEST_CASE("tracepoint syscalls:sys_enter_write with a pid filter counts exactly K writes") {
  Result<uint32_t> id = tracepoint_id("syscalls", "sys_enter_write");
  REQUIRE_MESSAGE(id, (id ? "" : id.error().message()));
  Result<Counter> counter = make_counter(BPF_PROG_TYPE_TRACEPOINT, "count_writes");
  REQUIRE_MESSAGE(counter, (counter ? "" : counter.error().message()));

  int go[2];
  REQUIRE(::pipe2(go, O_CLOEXEC) == 0);
  pid_t writer = start_writer(go);
  REQUIRE(writer > 0);
  ::close(go[0]);
  Result<Fd> perf = open_tracepoint(*id, writer, -1, "syscalls:sys_enter_write");
  REQUIRE_MESSAGE(perf, (perf ? "" : perf.error().message()));
  Result<PerfAttachment> attached = attach_perf_event(std::move(*perf), counter->prog.get());
  REQUIRE_MESSAGE(attached, (attached ? "" : attached.error().message()));
  ::close(go[1]);  // release the writer
  int status = 0;
  REQUIRE(::waitpid(writer, &status, 0) == writer);
  REQUIRE(WIFEXITED(status));
  int reported = WEXITSTATUS(status);
  CHECK(reported == kWrites);
  CHECK(counter->value() == static_cast<uint64_t>(reported));
}
