// printf in a pinned iterator (iter:NAME:PIN) cannot send its record to rawprobe, which has
// ended by the time the pinned file is read: it runs as bpf_seq_printf (Linux 5.7), which
// formats in the kernel into the reader's seq_file. The kernel reads the format itself
// (kernel/bpf/helpers.c, bpf_bprintf_prepare) and takes less than bpftrace's printf: flags
// among "0 +-", a width, a length of l or ll, and conversions d i u x X c s p, with at most
// 12 arguments, each passed as a u64 (a string as its address).
#pragma once
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/base/types.h"

namespace rawprobe::lang {

inline constexpr size_t kSeqPrintfMaxArgs = 12;  // MAX_BPRINTF_VARARGS

// The format as bpf_seq_printf must see it, given the printf's argument types: each integer
// conversion made 64-bit (`%d` becomes `%lld`, as every argument is a u64). An error, saying
// what the kernel would refuse and what to write instead, for a conversion, flag or argument
// it does not take.
Result<std::string> seq_printf_format(const std::string& format, const std::vector<Type>& args);

}  // namespace rawprobe::lang
