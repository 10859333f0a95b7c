#include "engine/sys/bpf_call.h"

#include "engine/sys/errors.h"

namespace rawprobe::sys::detail {

Result<Fd> bpf_new_fd(int cmd, void* attr, uint32_t size, std::string what, std::string object) {
  BpfCall call{cmd, attr, size};
  Outcome out = invoke(call);
  if (!out.ok()) return call_error(std::move(what), call, out, std::move(object));
  return Fd(static_cast<int>(out.ret));
}

Status bpf_status(int cmd, void* attr, uint32_t size, std::string what, std::string object) {
  BpfCall call{cmd, attr, size};
  Outcome out = invoke(call);
  if (!out.ok()) return call_error(std::move(what), call, out, std::move(object));
  return {};
}

}  // namespace rawprobe::sys::detail
