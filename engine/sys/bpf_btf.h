// BPF_BTF_LOAD: type information a program loads with (engine/btf/func_btf.h).
#pragma once
#include <cstdint>
#include <span>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

Result<Fd> btf_load(std::span<const uint8_t> blob);

}  // namespace rawprobe::sys
