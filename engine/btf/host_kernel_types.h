// The running kernel's BTF, opened once per process (per host root, for tests) and shared by
// everything that asks: the script's C types (driver/lazy_kernel_types.h) and the probe types
// that take their arguments' types from BTF (fentry, fexit, iter). Sharing one KernelTypes
// makes `args.file` and a script's `(struct file *)` the same C type, and reads vmlinux once.
#pragma once
#include "engine/btf/kernel_types.h"

namespace rawprobe::btf {

// The shared KernelTypes, or why there is none (no /sys/kernel/btf/vmlinux: kernels before
// 5.4 or built without CONFIG_DEBUG_INFO_BTF). One thread at a time, as KernelTypes itself.
Result<KernelTypes*> host_kernel_types();

}  // namespace rawprobe::btf
