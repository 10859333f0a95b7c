#include "engine/driver/lazy_kernel_types.h"

#include "engine/btf/host_kernel_types.h"

namespace rawprobe::driver {

btf::KernelTypes* LazyKernelTypes::types() {
  if (!tried_) {
    tried_ = true;
    // No BTF (kernels before 5.4, or built without it) leaves only the script's own types;
    // a name neither defines is then reported where the script uses it. The instance is the
    // one fentry's typed arguments come from, so their types and the script's are the same.
    Result<btf::KernelTypes*> opened = btf::host_kernel_types();
    if (opened) types_ = *opened;
  }
  return types_ ? &*types_ : nullptr;
}

ctypes::CTypeRef LazyKernelTypes::find(ctypes::CKind tag, std::string_view name) {
  btf::KernelTypes* kernel = types();
  return kernel ? kernel->find(tag, name) : nullptr;
}

std::optional<int64_t> LazyKernelTypes::enum_constant(std::string_view name) {
  btf::KernelTypes* kernel = types();
  if (!kernel) return std::nullopt;
  Result<btf::Enumerator> found = kernel->enumerator(name);
  if (!found) return std::nullopt;
  return found->value;
}

}  // namespace rawprobe::driver
