// Questions about paths that elf/ (finding libraries) and engine/ (resolving probe targets)
// both ask.
#pragma once
#include <string>

namespace rawprobe {

// Whether `path` names a regular file (following symlinks): what can be an ELF binary.
bool is_regular_file(const std::string& path);

}  // namespace rawprobe
