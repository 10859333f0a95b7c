// Kernel BTF as the script's fallback TypeSource, opened on the first lookup: a script that
// names no C type (most one-liners) never reads /sys/kernel/btf.
#pragma once
#include "engine/btf/kernel_types.h"

namespace rawprobe::driver {

class LazyKernelTypes final : public ctypes::TypeSource {
 public:
  ctypes::CTypeRef find(ctypes::CKind tag, std::string_view name) override;
  std::optional<int64_t> enum_constant(std::string_view name) override;

 private:
  btf::KernelTypes* types();
  bool tried_ = false;
  btf::KernelTypes* types_ = nullptr;  // null when the kernel has no readable BTF
};

}  // namespace rawprobe::driver
