#include "engine/sys/proc_mem.h"

#include <fcntl.h>

#include <cerrno>
#include <utility>

#include "engine/sys/call.h"
#include "engine/sys/decode.h"
#include "engine/sys/errors.h"
#include "engine/sys/host_root.h"

namespace rawprobe::sys {

Result<ProcMem> ProcMem::open(pid_t pid) {
  std::string path = host_path("/proc/" + std::to_string(pid) + "/mem");
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return syscall_error("open the memory of process " + std::to_string(pid), "open", errno, path,
                         "writing a USDT semaphore into another process needs root (or ptrace "
                         "rights over it)");
  return ProcMem(Fd(fd), std::move(path));
}

Result<uint16_t> ProcMem::add_u16(uint64_t address, int delta, const std::string& what) {
  uint16_t value = 0;
  // One call description per half, each run and traced by invoke().
  auto run = [&](ProcMemCall::Op op) -> Status {
    ProcMemCall call{op, fd_.get(), path_, address, &value};
    Outcome out = invoke(call);
    if (!out.ok()) return call_error(what, call, out, path_);
    if (out.ret != static_cast<long>(sizeof value))
      return syscall_error(what + " (" + std::to_string(out.ret) + " of " + std::to_string(sizeof value) +
                               " bytes moved)",
                           call_label(call), 0, path_,
                           out.ret == 0 ? "the process has exited" : "the u16 crosses the end of a mapping");
    return {};
  };
  if (Status s = run(ProcMemCall::Op::read); !s) return s.error();
  value = static_cast<uint16_t>(value + delta);
  if (Status s = run(ProcMemCall::Op::write); !s) return s.error();
  return value;
}

}  // namespace rawprobe::sys
