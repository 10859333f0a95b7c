// Kernel addresses to names, from /proc/kallsyms (read under sys::host_root(), so tests can
// point it at a fixture), read once and kept sorted for binary search.
//
// The rule is bcc's, which bpftrace 0.17 prints through: text symbols only (types b B d D r R
// are data and skipped), an address resolves to the nearest symbol at or below it with no
// size check, and an address below every symbol is unknown. Module symbols keep their module
// ("ext4" of "[ext4]") for the perf-style and folded forms.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/result.h"

namespace rawprobe::symbols {

struct KernelFrame {
  std::string_view name;
  uint64_t offset = 0;         // address - symbol address
  std::string_view module;     // empty for the kernel image
};

class KernelSymbols {
 public:
  // Parses kallsyms text ("ffffffff81000000 T _stext\n", "... t f\t[mod]\n").
  static KernelSymbols parse(std::string_view text);
  // The running kernel's table, read on first use (per host root) and kept.
  static const KernelSymbols& host();

  std::optional<KernelFrame> find(uint64_t address) const;
  size_t size() const { return entries_.size(); }
  // Bytes the table holds (names and entries), for the memory figures.
  size_t bytes() const { return names_.capacity() + entries_.capacity() * sizeof(Entry); }
  // Whether every address read as zero: kallsyms hides addresses from non-root readers.
  bool addresses_hidden() const { return hidden_; }

 private:
  struct Entry {
    uint64_t address;
    uint32_t name;    // offset into names_ (NUL-terminated)
    uint32_t module;  // offset into names_, 0: none (names_[0] is an empty string)
  };
  std::string names_;
  std::vector<Entry> entries_;
  bool hidden_ = false;
};

// The address of kernel symbol `name` of any type (kaddr("jiffies") names data), from the
// host's /proc/kallsyms; errors say why not (absent, or addresses hidden from non-root).
Result<uint64_t> kernel_symbol_address(std::string_view name);

}  // namespace rawprobe::symbols
