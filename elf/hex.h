// elf/'s name for the hex formatting in engine/base/hex.h.
#pragma once
#include "engine/base/hex.h"

namespace rawprobe::elf {

using rawprobe::hex;
using rawprobe::hex_bytes;

}  // namespace rawprobe::elf
