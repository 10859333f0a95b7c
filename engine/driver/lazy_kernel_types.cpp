#include "engine/driver/lazy_kernel_types.h"

namespace rawprobe::driver {

ctypes::CTypeRef LazyKernelTypes::find(ctypes::CKind tag, std::string_view name) {
  if (!tried_) {
    tried_ = true;
    // No BTF (kernels before 5.4, or built without it) leaves only the script's own types;
    // a name neither defines is then reported where the script uses it.
    Result<btf::KernelTypes> opened = btf::KernelTypes::open();
    if (opened) types_.emplace(std::move(*opened));
  }
  return types_ ? types_->find(tag, name) : nullptr;
}

}  // namespace rawprobe::driver
