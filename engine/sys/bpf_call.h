// Internal to engine/sys: issuing one bpf() command through the choke point. Attrs are
// zeroed by the caller (`union bpf_attr attr{}`) and passed with the size up to the last
// field the command uses (attr_end), so an older kernel does not see trailing fields it
// would reject with E2BIG.
#pragma once
#include <cstddef>
#include <linux/bpf.h>
#include <string>

#include "engine/base/result.h"
#include "engine/sys/call.h"
#include "engine/sys/fd.h"

// Byte offset just past `field` of union bpf_attr.
#define RAWPROBE_BPF_ATTR_END(field) \
  static_cast<uint32_t>(offsetof(union bpf_attr, field) + sizeof(((union bpf_attr*)nullptr)->field))

namespace rawprobe::sys::detail {

inline Outcome bpf(int cmd, void* attr, uint32_t size) { return invoke(BpfCall{cmd, attr, size}); }

// Runs a command that returns a new fd (which the kernel creates O_CLOEXEC for every bpf
// object fd since 4.x: bpf_map_new_fd/bpf_prog_new_fd/bpf_link_settle use O_CLOEXEC).
Result<Fd> bpf_new_fd(int cmd, void* attr, uint32_t size, std::string what, std::string object);
// Runs a command that returns 0 on success.
Status bpf_status(int cmd, void* attr, uint32_t size, std::string what, std::string object);

inline uint64_t ptr_to_u64(const void* p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

}  // namespace rawprobe::sys::detail
