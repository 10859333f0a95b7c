#include "engine/driver/test_bench_run.h"

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include "engine/output/test_report.h"
#include "engine/probes/begin_end.h"
#include "engine/sys/bpf_info.h"
#include "engine/sys/bpf_stats.h"
#include "engine/sys/fd.h"
#include "engine/sys/stop_requested.h"

namespace rawprobe::driver {
namespace {

using probes::ProbeKind;

struct Block {
  std::string name;  // NAME of test:NAME
  const probes::AttachPoint* point = nullptr;
  int prog_fd = -1;
};

// In script order: programs are in block order, and each serves its block's points in order.
std::vector<Block> blocks_of(const BlockRun& run, ProbeKind kind) {
  std::vector<Block> out;
  for (const LoadedProgram& p : *run.programs) {
    const std::vector<probes::AttachPoint>& block = (*run.points)[p.compiled->block];
    for (size_t i : p.compiled->points) {
      if (i >= block.size() || block[i].kind != kind) continue;
      const std::string& full = block[i].name;
      out.push_back({full.substr(full.find(':') + 1), &block[i], p.fd.get()});
    }
  }
  return out;
}

uint64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

// Output written to `fd` goes to a memfd while it lives; text() reads what came.
class Capture {
 public:
  static Result<Capture> start(Output& out, int fd) {
    if (Status s = out.flush(); !s) return s.error();
    Capture c;
    c.fd_ = fd;
    c.saved_ = sys::Fd(::dup(fd));
    if (c.saved_.get() < 0) return syscall_error("keep the output fd", "dup", errno);
    c.mem_ = sys::Fd(::memfd_create("rawprobe-test-output", MFD_CLOEXEC));
    if (c.mem_.get() < 0) return syscall_error("make a file for a test's output", "memfd_create", errno);
    if (::dup2(c.mem_.get(), fd) < 0) return syscall_error("catch a test's output", "dup2", errno);
    return c;
  }
  Capture() = default;
  Capture(Capture&&) = default;
  ~Capture() {
    if (saved_.get() >= 0) ::dup2(saved_.get(), fd_);
  }
  // Flushes `out` into the memfd, puts the output fd back and returns what was written.
  Result<std::string> finish(Output& out) {
    Status flushed = out.flush();
    ::dup2(saved_.get(), fd_);
    saved_ = sys::Fd();
    if (!flushed) return flushed.error();
    std::string text;
    char buf[4096];
    for (off_t at = 0;;) {
      ssize_t n = ::pread(mem_.get(), buf, sizeof buf, at);
      if (n < 0) return syscall_error("read a test's output", "pread", errno);
      if (n == 0) break;
      text.append(buf, size_t(n));
      at += n;
    }
    return text;
  }

 private:
  int fd_ = -1;
  sys::Fd saved_, mem_;
};

// The program's own run time so far, as the kernel counts it while stats are on.
struct RunTime {
  uint64_t ns = 0, runs = 0;
};
Result<RunTime> run_time(int prog_fd) {
  Result<sys::ProgInfo> info = sys::prog_info(prog_fd);
  if (!info) return info.error();
  return RunTime{info->run_time_ns, info->run_cnt};
}

Result<std::unique_ptr<probes::Attachment>> attach_alone(const BlockRun& run, const Block& b) {
  return probes::attach({b.point, 1}, {&b.prog_fd, 1}, run.attach);
}

}  // namespace

Result<bool> run_test_blocks(const BlockRun& run) {
  std::vector<Block> tests = blocks_of(run, ProbeKind::Test);
  std::vector<std::string> names;
  for (const Block& t : tests) names.push_back(t.name);
  std::vector<bool> passed;
  Output& out = *run.parts.out;
  for (size_t i = 0; i < tests.size(); ++i) {
    Result<std::unique_ptr<probes::Attachment>> a = attach_alone(run, tests[i]);
    if (!a) return a.error();
    Result<Capture> capture = Capture::start(out, run.out_fd);
    if (!capture) return capture.error();
    run.parts.dispatcher->clear_exit();
    uint64_t start = now_ns();
    probes::trigger_test();
    Status drained = runtime::drain_events(run.parts);
    uint64_t took = now_ns() - start;
    a->reset();
    Result<std::string> text = capture->finish(out);
    if (!drained) return drained.error();
    if (!text) return text.error();
    passed.push_back(!(run.parts.dispatcher->exit_requested() && run.parts.dispatcher->exit_code() != 0));
    out.text_event("test", test_report_entry(names, i, took, passed, *text));
    if (Status s = out.flush(); !s) return s.error();
  }
  run.parts.dispatcher->clear_exit();
  for (bool p : passed)
    if (!p) return false;
  return true;
}

Status run_bench_blocks(const BlockRun& run) {
  std::vector<Block> benches = blocks_of(run, ProbeKind::Bench);
  std::vector<std::string> names;
  for (const Block& b : benches) names.push_back(b.name);
  Output& out = *run.parts.out;
  const uint64_t budget = uint64_t(std::chrono::nanoseconds(kBenchTime).count());
  // The kernel's count of the program's own time, like 0.26.1's BPF_PROG_TEST_RUN figure;
  // without it (before 5.8) the wall time of a trigger, its uprobe trap included.
  Result<sys::Fd> stats = sys::enable_run_time_stats();
  for (size_t i = 0; i < benches.size(); ++i) {
    Result<std::unique_ptr<probes::Attachment>> a = attach_alone(run, benches[i]);
    if (!a) return a.error();
    Result<RunTime> before = stats ? run_time(benches[i].prog_fd) : Result<RunTime>(RunTime{});
    if (!before) return before.error();
    uint64_t iterations = 0, spent = 0;
    // Batches double so the clock is read rarely; the output is drained (and dropped) between
    // them, so a block that prints does not fill the event buffer.
    for (uint64_t batch = 1; spent < budget && !sys::stop_requested(); batch *= 2) {
      Result<Capture> capture = Capture::start(out, run.out_fd);
      if (!capture) return capture.error();
      uint64_t start = now_ns();
      for (uint64_t k = 0; k < batch; ++k) probes::trigger_bench();
      spent += now_ns() - start;
      iterations += batch;
      run.parts.dispatcher->clear_exit();
      Status drained = runtime::drain_events(run.parts);
      Result<std::string> dropped = capture->finish(out);
      if (!drained) return drained.error();
      if (!dropped) return dropped.error();
    }
    a->reset();
    run.parts.dispatcher->clear_exit();
    uint64_t average = iterations ? spent / iterations : 0;
    if (stats) {
      Result<RunTime> after = run_time(benches[i].prog_fd);
      if (!after) return after.error();
      uint64_t runs = after->runs - before->runs;
      average = runs ? (after->ns - before->ns) / runs : 0;
    }
    out.text_event("bench", bench_report_row(names, i, average, iterations));
    if (Status s = out.flush(); !s) return s.error();
  }
  return {};
}

}  // namespace rawprobe::driver
