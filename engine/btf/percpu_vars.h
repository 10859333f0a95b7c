// The kernel's per-CPU variables in its BTF: a VAR record listed in vmlinux's ".data..percpu"
// DATASEC (pahole emits one when CONFIG_DEBUG_INFO_BTF is set, Linux 5.7 on). A program
// names one by its VAR id in a 64-bit immediate load (BPF_PSEUDO_BTF_ID) and turns it into an
// address with bpf_this_cpu_ptr() or bpf_per_cpu_ptr() (percpu_kaddr(), gen_percpu.cpp).
#pragma once
#include <cstdint>
#include <string_view>

#include "engine/base/result.h"

namespace rawprobe::btf {

struct PerCpuVar {
  uint32_t btf_id = 0;  // the VAR's id in vmlinux
  uint32_t size = 0;    // bytes, from the DATASEC entry
};

// The per-CPU variable `name` of vmlinux (read from /sys/kernel/btf/vmlinux under the host
// root, once per process), or why there is none: no BTF, no variable of that name, or one
// that is not per-CPU.
Result<PerCpuVar> find_percpu_var(std::string_view name);

}  // namespace rawprobe::btf
