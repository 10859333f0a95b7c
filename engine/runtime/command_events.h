// What cat() and system() do in user space with their formatted text (their records are
// printf records: lang::PrintfInfo::function says which):
//   cat("/proc/%d/status", pid)   the file's first bytes, as they are (bpftrace's
//                                 BPFTRACE_CAT_BYTES_MAX, 10240)
//   system("ps -p %d", pid)       the command, run by /bin/sh, and its standard output
#pragma once
#include <string>

#include "engine/base/result.h"

namespace rawprobe::runtime {

inline constexpr size_t kCatBytesMax = 10240;

// The file's first `max` bytes; the error reads as bpftrace's:
// "failed to open file '/nope': No such file or directory".
Result<std::string> cat_file(const std::string& path, size_t max = kCatBytesMax);
// The command's standard output once it has finished (its standard error is left alone).
Result<std::string> system_output(const std::string& command);

}  // namespace rawprobe::runtime
