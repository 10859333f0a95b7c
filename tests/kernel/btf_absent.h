// A kernel without BTF (Debian's armmp kernels, built without CONFIG_DEBUG_INFO_BTF) has no
// /sys/kernel/btf/vmlinux: there the BTF reader's tests check its refusal instead.
#pragma once
#include <doctest/doctest.h>

#include "engine/btf/kernel_types.h"
#include "tests/kernel/cli_run.h"

namespace rawprobe::btf {

// True on a kernel without BTF, after checking that opening the kernel's types failed and
// named the file it could not open; false where the kernel has BTF.
inline bool checked_btf_absent(const Result<KernelTypes>& opened) {
  if (cli_test::kernel_btf_present()) return false;
  REQUIRE(!opened.ok());
  CHECK(opened.error().message().find("/sys/kernel/btf/vmlinux") != std::string::npos);
  CHECK(opened.error().message().find("ENOENT") != std::string::npos);
  return true;
}

}  // namespace rawprobe::btf
