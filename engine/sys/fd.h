// engine/sys's name for the owned file descriptor (engine/base/fd.h), which every kernel object
// it hands out (maps, programs, links, perf events) is wrapped in.
#pragma once
#include "engine/base/fd.h"

namespace rawprobe::sys {

using Fd = rawprobe::Fd;

}  // namespace rawprobe::sys
