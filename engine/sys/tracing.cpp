#include "engine/sys/tracing.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

#include "engine/sys/bpf_call.h"

namespace rawprobe::sys {

using detail::ptr_to_u64;

Result<TracingLink> link_tracing(int prog_fd, uint32_t attach_type, const std::string& object) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.link_create.prog_fd = static_cast<uint32_t>(prog_fd);
  attr.link_create.attach_type = attach_type;
  Result<Fd> link = detail::bpf_new_fd(BPF_LINK_CREATE, &attr, RAWPROBE_BPF_ATTR_END(link_create.flags),
                                       "attach tracing program", object);
  if (link) return TracingLink{std::move(*link), TracingRoute::Link};
  // Before 5.11 BPF_LINK_CREATE knows no tracing programs (EINVAL); the raw tracepoint
  // command with no name has attached them since 5.5.
  if (link.error().err != EINVAL) return link.error();
  std::memset(&attr, 0, sizeof attr);
  attr.raw_tracepoint.prog_fd = static_cast<uint32_t>(prog_fd);
  Result<Fd> raw = detail::bpf_new_fd(BPF_RAW_TRACEPOINT_OPEN, &attr, RAWPROBE_BPF_ATTR_END(raw_tracepoint.prog_fd),
                                      "attach tracing program", object);
  if (!raw) return raw.error();
  return TracingLink{std::move(*raw), TracingRoute::RawTracepointOpen};
}

Result<Fd> link_iter(int prog_fd, const std::string& object) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.link_create.prog_fd = static_cast<uint32_t>(prog_fd);
  attr.link_create.attach_type = BPF_TRACE_ITER;
  return detail::bpf_new_fd(BPF_LINK_CREATE, &attr, RAWPROBE_BPF_ATTR_END(link_create.flags),
                            "attach iterator", object);
}

Result<Fd> iter_create(int link_fd, const std::string& object) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.iter_create.link_fd = static_cast<uint32_t>(link_fd);
  return detail::bpf_new_fd(BPF_ITER_CREATE, &attr, RAWPROBE_BPF_ATTR_END(iter_create.flags),
                            "create iterator", object);
}

Status iter_read_all(int iter_fd) {
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(iter_fd, buffer, sizeof buffer);
    if (n == 0) return {};
    if (n < 0 && errno == EINTR) continue;
    // EAGAIN: the kernel stops a read after a million objects with nothing written; go on.
    if (n < 0 && errno == EAGAIN) continue;
    if (n < 0) return syscall_error("run iterator", "read", errno, "iterator fd " + std::to_string(iter_fd));
  }
}

Result<Fd> module_btf_fd(const std::string& module) {
  uint32_t id = 0;
  for (;;) {
    union bpf_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.start_id = id;
    Outcome next = detail::bpf(BPF_BTF_GET_NEXT_ID, &attr, RAWPROBE_BPF_ATTR_END(next_id));
    if (!next.ok()) {
      if (next.err == ENOENT) break;
      return syscall_error("find the BTF object of module " + module, "bpf(BPF_BTF_GET_NEXT_ID)", next.err, module);
    }
    id = attr.next_id;
    std::memset(&attr, 0, sizeof attr);
    attr.btf_id = id;
    Result<Fd> fd = detail::bpf_new_fd(BPF_BTF_GET_FD_BY_ID, &attr, RAWPROBE_BPF_ATTR_END(btf_id),
                                       "open BTF object", "btf id " + std::to_string(id));
    if (!fd) continue;  // unloaded between the two calls
    char name[64] = {};
    bpf_btf_info info;
    std::memset(&info, 0, sizeof info);
    info.name = ptr_to_u64(name);
    info.name_len = sizeof name;
    std::memset(&attr, 0, sizeof attr);
    attr.info.bpf_fd = static_cast<uint32_t>(fd->get());
    attr.info.info_len = sizeof info;
    attr.info.info = ptr_to_u64(&info);
    if (!detail::bpf(BPF_OBJ_GET_INFO_BY_FD, &attr, RAWPROBE_BPF_ATTR_END(info.info)).ok()) continue;
    if (info.kernel_btf && module == std::string(name, ::strnlen(name, sizeof name))) return std::move(*fd);
  }
  return make_error("find the BTF object of module " + module, module,
                    "no loaded BTF object has that name; is the module loaded (lsmod)?");
}

}  // namespace rawprobe::sys
