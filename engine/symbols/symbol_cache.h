// Symbol tables of files (file_symbols.h), kept within a memory budget: each file's table is
// loaded once and shared by every process that maps the file; when the tables together pass
// the budget, whole tables are dropped, least recently used first, and loaded again if an
// address in them is met later. Keys name a file's identity, not its path: "dev:inode", so
// two paths to one file (a container's view, a map_files link) share one table.
#pragma once
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>

#include "engine/symbols/file_symbols.h"

namespace rawprobe::symbols {

// The default budget, and the environment variable and flag that change it (in MiB).
inline constexpr size_t kDefaultSymbolBudgetMiB = 64;
inline constexpr const char* kSymbolBudgetEnv = "RAWPROBE_SYMBOL_CACHE_MB";

struct SymbolCacheStats {
  size_t bytes = 0;       // held now
  size_t peak_bytes = 0;  // most ever held at once
  size_t tables = 0;      // held now
  size_t loads = 0;       // tables built (a table evicted and needed again counts twice)
  size_t evictions = 0;
};

class SymbolCache {
 public:
  explicit SymbolCache(size_t budget_bytes) : budget_(budget_bytes) {}

  // The table for `key`, built by `load` when not held. A file that failed to load is not
  // tried again (nullptr). The table stays valid while the caller holds the pointer.
  std::shared_ptr<const FileSymbols> get(const std::string& key,
                                         const std::function<Result<FileSymbols>()>& load);
  const SymbolCacheStats& stats() const { return stats_; }
  size_t budget() const { return budget_; }

 private:
  using Entry = std::pair<std::string, std::shared_ptr<const FileSymbols>>;
  size_t budget_;
  std::list<Entry> lru_;  // front: most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  std::set<std::string> failed_;
  SymbolCacheStats stats_;
};

}  // namespace rawprobe::symbols
