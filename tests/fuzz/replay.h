// The unit suite's view of the fuzz targets: each tests/fuzz/*_fuzz.cpp is compiled into the
// unit binary too (mk/fuzz_replay.mk), its entry point renamed and listed here by target
// name, so fuzz_regressions_test can replay the inputs that once crashed it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace rawprobe::fuzz {

using Entry = int (*)(const uint8_t* data, size_t size);

// Target name ("elf_loader_fuzz") -> entry point.
std::map<std::string, Entry>& replay_targets();

struct ReplayEntry {
  ReplayEntry(const char* name, Entry entry) { replay_targets()[name] = entry; }
};

}  // namespace rawprobe::fuzz
