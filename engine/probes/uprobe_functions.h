// Listing the functions a uprobe can probe (`-l 'uprobe:BIN:PATTERN'`, also for uretprobe:
// the same set, since a return probe is planted at the function's entry too) and describing
// one (-lv, --explain).
#pragma once
#include <string>
#include <vector>

#include "engine/probes/provider.h"
#include "engine/probes/targets.h"

namespace rawprobe::probes {

Status list_functions(const ListRequest& request, ListSink& sink);

// The -lv detail lines of one function: address, size, file offset with its segment, the
// symbol table(s) the name came from; with `disassemble`, every instruction as
// "    +OFF  ADDRESS  TEXT <target>" (the offsets FUNC+OFF may use; elf/disasm_listing.h).
std::vector<std::string> describe_function(elf::Binary& bin, const elf::Symbol& sym,
                                           bool disassemble);

}  // namespace rawprobe::probes
