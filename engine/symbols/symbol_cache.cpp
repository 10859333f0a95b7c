#include "engine/symbols/symbol_cache.h"

#include <algorithm>

namespace rawprobe::symbols {

std::shared_ptr<const FileSymbols> SymbolCache::get(const std::string& key,
                                                    const std::function<Result<FileSymbols>()>& load) {
  if (auto it = index_.find(key); it != index_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->second;
  }
  if (failed_.count(key)) return nullptr;
  Result<FileSymbols> loaded = load();
  if (!loaded) {
    failed_.insert(key);
    return nullptr;
  }
  auto table = std::make_shared<const FileSymbols>(std::move(*loaded));
  lru_.emplace_front(key, table);
  index_[key] = lru_.begin();
  stats_.loads++;
  stats_.tables++;
  stats_.bytes += table->bytes();
  stats_.peak_bytes = std::max(stats_.peak_bytes, stats_.bytes);
  // Over budget: drop the least recently used tables, never the one just loaded (a file
  // bigger than the whole budget is still used, then dropped when the next one comes).
  while (stats_.bytes > budget_ && lru_.size() > 1) {
    Entry& last = lru_.back();
    stats_.bytes -= last.second->bytes();
    stats_.tables--;
    stats_.evictions++;
    index_.erase(last.first);
    lru_.pop_back();
  }
  return table;
}

}  // namespace rawprobe::symbols
