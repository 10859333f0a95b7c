#include "engine/sys/raw_tracepoint.h"

#include <cstring>

#include "engine/sys/bpf_call.h"

namespace rawprobe::sys {

Result<Fd> raw_tracepoint_open(const std::string& name, int prog_fd) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.raw_tracepoint.name = detail::ptr_to_u64(name.c_str());
  attr.raw_tracepoint.prog_fd = static_cast<uint32_t>(prog_fd);
  // Sized to prog_fd: the cookie field after it is 6.10's, and a 4.17 kernel would refuse
  // an attr that reaches it (E2BIG for non-zero bytes it does not know).
  return detail::bpf_new_fd(BPF_RAW_TRACEPOINT_OPEN, &attr, RAWPROBE_BPF_ATTR_END(raw_tracepoint.prog_fd),
                            "attach raw tracepoint", "rawtracepoint:" + name);
}

}  // namespace rawprobe::sys
