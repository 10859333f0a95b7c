// Address to file offset through PT_LOAD.
#include "elf/segments.h"

#include <gelf.h>


namespace rawprobe::elf {

const Segment* load_segment_of(const ElfFile& file, uint64_t vaddr) {
  for (const Segment& seg : file.segments())
    if (seg.type == PT_LOAD && vaddr >= seg.vaddr && vaddr - seg.vaddr < seg.filesz) return &seg;
  return nullptr;
}

std::string describe(const Segment& seg) {
  std::string perms = {(seg.flags & PF_R) ? 'r' : '-', (seg.flags & PF_W) ? 'w' : '-',
                       (seg.flags & PF_X) ? 'x' : '-'};
  return "PT_LOAD[" + std::to_string(seg.index) + "] " + perms + " vaddr " + hex(seg.vaddr) +
         ".." + hex(seg.vaddr + seg.filesz) + " offset " + hex(seg.offset);
}

static std::string load_list(const ElfFile& file) {
  std::string list;
  for (const Segment& seg : file.segments())
    if (seg.type == PT_LOAD) list += (list.empty() ? "" : "; ") + describe(seg);
  return list.empty() ? "the file has no PT_LOAD segments" : "segments: " + list;
}

Result<Placement> code_offset(const ElfFile& file, uint64_t vaddr, std::string_view what) {
  const Segment* seg = load_segment_of(file, vaddr);
  if (!seg || !seg->executable())
    return file.error(std::string(what) + " at " + hex(vaddr) +
                          (seg ? " is in a non-executable segment (" + describe(*seg) + ")"
                               : " is outside every loadable segment"),
                      "a uprobe must be placed on code; " + load_list(file));
  return Placement{vaddr - seg->vaddr + seg->offset, seg};
}

Result<Placement> data_offset(const ElfFile& file, uint64_t vaddr, std::string_view what) {
  const Segment* seg = load_segment_of(file, vaddr);
  if (!seg)
    return file.error(std::string(what) + " at " + hex(vaddr) +
                          " is outside every file-backed loadable segment",
                      load_list(file));
  return Placement{vaddr - seg->vaddr + seg->offset, seg};
}

uint64_t first_load_vaddr(const ElfFile& file) {
  uint64_t lowest = UINT64_MAX;
  for (const Segment& seg : file.segments())
    if (seg.type == PT_LOAD && seg.vaddr < lowest) lowest = seg.vaddr;
  return lowest == UINT64_MAX ? 0 : lowest;
}

}  // namespace rawprobe::elf
