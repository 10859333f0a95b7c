#include "engine/btf/host_kernel_types.h"

#include <memory>

#include "engine/sys/host_root.h"

namespace rawprobe::btf {
namespace {

struct Opened {
  std::unique_ptr<KernelTypes> types;
  Error error;  // when types is null
};

}  // namespace

Result<KernelTypes*> host_kernel_types() {
  const Opened& opened = sys::once_per_host_root<Opened>([] {
    Result<KernelTypes> kernel = KernelTypes::open();
    if (!kernel) return Opened{nullptr, kernel.error()};
    return Opened{std::make_unique<KernelTypes>(std::move(*kernel)), {}};
  });
  if (!opened.types) return opened.error;
  return opened.types.get();
}

}  // namespace rawprobe::btf
