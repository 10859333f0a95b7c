// Virtual address -> file offset through the PT_LOAD segment that holds the address. The same
// formula serves ET_EXEC (link address = run address), PIE and shared libraries (based at 0)
// and prelinked objects (based elsewhere): offset = vaddr - p_vaddr + p_offset. It never
// assumes the first segment starts at 0.
#pragma once
#include <cstdint>

#include "elf/elf_file.h"
#include "elf/hex.h"

namespace rawprobe::elf {

struct Placement {
  uint64_t file_offset = 0;
  const Segment* segment = nullptr;
};

// The PT_LOAD segment whose file-backed bytes hold `vaddr`; nullptr when none does.
const Segment* load_segment_of(const ElfFile& file, uint64_t vaddr);

// File offset of code at `vaddr`: it must lie in an executable PT_LOAD. `what` names the
// address in the error ("symbol 'main'", "USDT probe p:n").
Result<Placement> code_offset(const ElfFile& file, uint64_t vaddr, std::string_view what);

// File offset of data at `vaddr` (a USDT semaphore): any file-backed PT_LOAD.
Result<Placement> data_offset(const ElfFile& file, uint64_t vaddr, std::string_view what);

// The address the file's lowest PT_LOAD asks for (0 for PIE and shared libraries): a runtime
// address minus (mapping start - this) gives the link-time address.
uint64_t first_load_vaddr(const ElfFile& file);

// "PT_LOAD[2] r-x vaddr 0x1000..0x1f00 offset 0x1000" for messages and --explain.
std::string describe(const Segment& segment);

}  // namespace rawprobe::elf
