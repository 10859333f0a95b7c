// Another process's memory through /proc/PID/mem: the one place rawprobe writes into a
// traced process. Kernels whose uprobes cannot count a USDT semaphore (no ref_ctr_offset,
// before 4.20) leave it to the tracer to increment the u16 while the probe is attached and
// decrement it after, as bcc and bpftrace do (engine/probes/usdt_semaphore.cpp). The read
// and the write go through invoke() (ProcMemCall), so --trace-syscalls shows both.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

class ProcMem {
 public:
  // Opens host_path("/proc/PID/mem") read-write. The fd keeps the memory (the mm) of the
  // program running now: after an exec its reads and writes find nothing, they never reach
  // the next program's memory.
  static Result<ProcMem> open(pid_t pid);

  // Reads the u16 at `address`, adds `delta` (wrapping, as the u16 does) and writes it back:
  // the value written. `what` names the operation for the Error ("increment the USDT
  // semaphore at 0x..."), which carries the failing call, its errno and a hint; a read or
  // write that moves fewer than 2 bytes (0: the process has exited) is an Error too.
  Result<uint16_t> add_u16(uint64_t address, int delta, const std::string& what);

  const std::string& path() const { return path_; }

 private:
  ProcMem(Fd fd, std::string path) : fd_(std::move(fd)), path_(std::move(path)) {}
  Fd fd_;
  std::string path_;
};

}  // namespace rawprobe::sys
