// User addresses to names, per process.
//
// A process's mappings are read from /proc/PID/maps when its first event arrives (note_pid),
// not when the maps are printed, so a process that has exited by then still symbolizes: its
// files are opened by path later. Files that cannot be opened by path (deleted, or memfd
// libraries) are read through /proc/PID/map_files at once, while the process still lives.
// Paths are opened through /proc/PID/root while the process lives, so files of a container
// are read from its own mount namespace. Symbol tables are shared by file (symbol_cache.h).
// Addresses in no file (JIT-compiled code) are looked up in /tmp/perf-PID.map, the perf map
// that Java (-XX:+DumpPerfMapAtExit, perf-map-agent), Node (--perf-basic-prof) and Python
// 3.12 (-X perf) write: "START SIZE NAME" per line, in hex.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "elf/library_path.h"
#include "engine/symbols/process_maps.h"
#include "engine/symbols/symbol_cache.h"

namespace rawprobe::symbols {

struct UserResolved {
  std::optional<UserFrame> frame;
  std::string module;  // the mapping's path as /proc/PID/maps gives it; empty when unknown
};

class UserSymbols {
 public:
  // `proc`: where /proc is (tests point it at a fixture); `roots`: where debug files are.
  UserSymbols(size_t budget_bytes, std::string proc = "/proc", elf::FsRoots roots = {});

  // Takes the mappings of `pid` now, if not taken yet.
  void note_pid(uint32_t pid);
  UserResolved resolve(uint32_t pid, uint64_t address);
  // The link-time address of `symbol` in the ELF file at `path` (uaddr()).
  static Result<uint64_t> symbol_address(const std::string& path, const std::string& symbol);
  const SymbolCacheStats& stats() const { return cache_.stats(); }
  size_t budget() const { return cache_.budget(); }

 private:
  struct PerfSymbol {
    uint64_t start, size;
    std::string name;
  };
  struct Process {
    std::vector<Mapping> maps;
    bool reread = false;                    // maps read again once for an address in none
    std::optional<std::vector<PerfSymbol>> perf_map;  // sorted by start; read on first need
    std::vector<std::pair<std::string, std::shared_ptr<const FileSymbols>>> pinned;  // gone files
  };
  Process& process(uint32_t pid);
  bool read_maps(uint32_t pid, Process& p);
  std::shared_ptr<const FileSymbols> table_for(uint32_t pid, const Process& p, const Mapping& m);
  std::optional<UserFrame> perf_map_frame(uint32_t pid, Process& p, uint64_t address, std::string& module);

  std::string proc_;
  elf::FsRoots roots_;
  SymbolCache cache_;
  std::unordered_map<uint32_t, Process> processes_;
};

// "dev:inode" of a mapping: the cache key of its file.
std::string file_key(const Mapping& m);

}  // namespace rawprobe::symbols
