// Probe resolution: from `uprobe:BIN:func+OFF`, `uprobe:BIN:0xADDR` and `usdt:BIN:prov:name`
// to what perf_event_open's uprobe PMU needs (path, file offset, ref_ctr_offset), with an
// optional step-by-step account for --explain:
//   symbol -> address -> segment -> file offset -> instruction-boundary check.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "elf/binary.h"
#include "elf/usdt_args.h"

namespace rawprobe::elf {

struct UprobeSite {
  std::string path;             // the file to attach to
  uint64_t file_offset = 0;     // uprobe offset into that file
  uint64_t address = 0;         // link-time virtual address
  uint64_t ref_ctr_offset = 0;  // file offset of a USDT semaphore; 0 = none
  std::string function;         // the symbol (versioned name), for display; may be empty
  uint64_t function_offset = 0;
};

struct ResolveOptions {
  bool unsafe = false;          // --unsafe: skip the instruction-boundary check
  bool ifunc_resolver = false;  // allow probing a GNU_IFUNC symbol (its resolver)
};

// --explain's narrative: one line per step, in order.
struct Explain {
  std::vector<std::string> steps;
  void add(std::string step) { steps.push_back(std::move(step)); }
  std::string text() const;
};

// Every function the pattern selects (exact, wildcard, or quoted demangled C++), one site per
// distinct address. `offset` is the +OFF (0 for none).
Result<std::vector<UprobeSite>> resolve_function(Binary& binary, std::string_view pattern,
                                                 uint64_t offset, const ResolveOptions& options,
                                                 Explain* explain = nullptr);

// A raw link-time address; when it falls inside a known function, the boundary is checked.
Result<UprobeSite> resolve_address(Binary& binary, uint64_t address,
                                   const ResolveOptions& options, Explain* explain = nullptr);

struct UsdtSite {
  UprobeSite site;
  std::string provider, name;
  size_t location = 0;       // which location of the probe (0-based)
  size_t note_index = 0;
  std::vector<UsdtArg> args; // parsed for the binary's architecture
  // Link-time addresses of the symbols the arguments name, in args order (0 for none); for a
  // GOT-relative one (i386 "counter@GOTOFF(%ebx)") the symbol's distance from the GOT
  // (elf/usdt_symbol.h).
  std::vector<uint64_t> arg_symbol_addresses;
};

// Every location of every probe matching provider and name (wildcards allowed; an empty
// provider matches any).
Result<std::vector<UsdtSite>> resolve_usdt(Binary& binary, std::string_view provider,
                                           std::string_view name, Explain* explain = nullptr);

}  // namespace rawprobe::elf
