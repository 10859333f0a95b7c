// Instructions the kernel will not put a uprobe on, known before asking it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "arch/arch.h"

namespace rawprobe::elf {

// Why the kernel refuses a uprobe on the instruction starting `code` in a file of the
// architecture `table` (ENOTSUPP from the attach), or nullopt when nothing here says it will
// (also for a null table). Known for x86 only (arch::UprobeRefusal::X86Prefixes):
// arch/x86/kernel/uprobes.c (is_prefix_bad) refuses any instruction carrying a LOCK or an
// ES/CS/SS/DS segment prefix, such as libc's pthread_spin_lock, which starts with `lock decl`.
std::optional<std::string> uprobe_refusal(const arch::Table* table, std::span<const uint8_t> code);

}  // namespace rawprobe::elf
