// A second end-to-end path through the raw syscall layer alone: count syscalls:sys_enter_write
// of one process while a helper process writes exactly K times; the helper reports how many
// writes it made.
//
// The perf event is opened with the helper's pid, but that pid does not filter a BPF program
// on a tracepoint: the program is put in the tracepoint's prog_array and runs for every task
// that hits it (kernel/trace/trace_syscalls.c perf_syscall_enter() runs the array before it
// looks at the perf events scheduled on this CPU; the same since BPF on tracepoints, 4.7).
// So the counting program filters on the tgid itself, as rawprobe's own pid predicates do;
// counting without that filter picked up other processes' writes on a busy machine.
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
// Writes this test process makes while attached: seen by BPF despite the perf pid filter.
constexpr int kOwnWrites = 5;

// write(2) of one byte to /dev/null `times` times; returns how many succeeded.
int write_dev_null(int times) {
  int fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  int done = 0;
  for (int i = 0; i < times; ++i)
    if (::write(fd, "x", 1) == 1) ++done;
  ::close(fd);
  return done;
}

// Forks a helper that waits on `go`, then calls write(2) kWrites times on /dev/null and
// exits with the number of writes that succeeded (its report; _exit itself does not write).
pid_t start_writer(const int go[2]) {
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::close(go[1]);  // only the parent holds the write end: its close is the release
  char byte;
  while (::read(go[0], &byte, 1) < 0 && errno == EINTR) {
  }
  ::_exit(write_dev_null(kWrites));
}

PerfAttachment attach_counter(uint32_t id, pid_t pid, const Counter& counter) {
  Result<Fd> perf = open_tracepoint(id, pid, -1, "syscalls:sys_enter_write");
  REQUIRE_MESSAGE(perf, (perf ? "" : perf.error().message()));
  Result<PerfAttachment> attached = attach_perf_event(std::move(*perf), counter.prog.get());
  REQUIRE_MESSAGE(attached, (attached ? "" : attached.error().message()));
  return std::move(*attached);
}

}  // namespace

TEST_CASE("tracepoint syscalls:sys_enter_write: a tgid-filtering program counts exactly K writes") {
  Result<uint32_t> id = tracepoint_id("syscalls", "sys_enter_write");
  REQUIRE_MESSAGE(id, (id ? "" : id.error().message()));

  int go[2];
  REQUIRE(::pipe2(go, O_CLOEXEC) == 0);
  pid_t writer = start_writer(go);
  REQUIRE(writer > 0);
  ::close(go[0]);

  Result<Counter> own = make_counter(BPF_PROG_TYPE_TRACEPOINT, "count_writes", writer);
  REQUIRE_MESSAGE(own, (own ? "" : own.error().message()));
  Result<Counter> any = make_counter(BPF_PROG_TYPE_TRACEPOINT, "count_all_writes");
  REQUIRE_MESSAGE(any, (any ? "" : any.error().message()));
  PerfAttachment own_attached = attach_counter(*id, writer, *own);
  PerfAttachment any_attached = attach_counter(*id, writer, *any);

  int own_writes = write_dev_null(kOwnWrites);  // not the writer's pid
  REQUIRE(own_writes == kOwnWrites);
  ::close(go[1]);  // release the writer
  int status = 0;
  REQUIRE(::waitpid(writer, &status, 0) == writer);
  REQUIRE(WIFEXITED(status));
  int reported = WEXITSTATUS(status);
  CHECK(reported == kWrites);
  CHECK(own->value() == static_cast<uint64_t>(reported));
  // The unfiltered program on the same pid-filtered event also saw this process's writes
  // (and whatever else wrote meanwhile): the reason the filter above is needed.
  CHECK(any->value() >= static_cast<uint64_t>(reported + own_writes));
}
