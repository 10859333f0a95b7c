// Syscall numbers to names, per architecture: what syscall_name() prints. The tables are data
// generated from each architecture's uapi <asm/unistd*.h> (arch/gen-syscall-names), so the
// names are the kernel's own spelling ("newfstatat", not glibc's "fstatat").
#pragma once
#include <cstdint>
#include <string_view>

#include "arch/arch.h"

namespace rawprobe::arch {

// The name of syscall `nr` on the table's architecture; empty when the table has no syscall
// names or the number is not a syscall of the headers the table was made from.
std::string_view syscall_name(const Table& table, uint64_t nr);

}  // namespace rawprobe::arch
