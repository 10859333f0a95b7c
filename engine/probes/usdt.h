// usdt:BIN:PROVIDER:NAME and usdt:BIN:NAME (any provider), with wildcards; usdt:*:... with -p
// PID over every object the process maps. Each note location is one attach point: a probe
// site copied by inlining gets one point per copy, each with its own argument specs (the
// cookie tells the program which location fired). Note parsing and resolution are
// elf/resolve.h's (resolve_usdt).
#pragma once
#include <string>
#include <vector>

#include "elf/binary.h"
#include "elf/usdt_notes.h"

namespace rawprobe::probes {

// The -lv lines of one location: location and file offset, semaphore and file offset, each
// argument's raw spec and decoded meaning.
std::vector<std::string> describe_usdt_location(const elf::Binary& bin, const elf::UsdtNote& note);

}  // namespace rawprobe::probes
