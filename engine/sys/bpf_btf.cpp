#include "engine/sys/bpf_btf.h"

#include <cstring>

#include "engine/sys/bpf_call.h"

namespace rawprobe::sys {

Result<Fd> btf_load(std::span<const uint8_t> blob) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.btf = detail::ptr_to_u64(blob.data());
  attr.btf_size = static_cast<uint32_t>(blob.size());
  return detail::bpf_new_fd(BPF_BTF_LOAD, &attr, RAWPROBE_BPF_ATTR_END(btf_log_level), "load BTF",
                            std::to_string(blob.size()) + " bytes");
}

}  // namespace rawprobe::sys
