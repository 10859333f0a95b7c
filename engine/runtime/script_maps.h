// The kernel maps of one compiled script: created from CompiledScript::maps (MapHandle{i} is
// maps[i]), and read back, cleared and zeroed for the script's user maps (@name).
//
// Keys are laid out as a C struct of their parts (engine/base/layout.h) on both sides: the code
// generator writes them that way and output decodes them that way.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/base/result.h"
#include "engine/codegen/compiled_script.h"
#include "engine/lang/program_info.h"
#include "engine/output/map_print.h"
#include "engine/runtime/point_text.h"
#include "engine/sys/fd.h"

namespace rawprobe::runtime {

class ScriptMaps {
 public:
  // Creates every map. `ncpus` (possible CPUs) sizes per-CPU values when reading.
  static Result<ScriptMaps> create(const codegen::CompiledScript& script,
                                   const lang::ProgramInfo& info, uint32_t ncpus);

  // The fds in CompiledScript::maps order, for Builder::finish().
  const std::vector<int>& fds() const { return fds_; }
  int fd(size_t index) const { return fds_[index]; }
  // The entries map `index` was created with: its MapDef's, or fewer for a stack map the
  // kernel could not allocate whole.
  uint32_t max_entries(size_t index) const { return entries_[index]; }
  // The kernel map holding user map `user_map` (index into ProgramInfo::maps), or -1.
  int map_index_of_user_map(size_t user_map) const;
  // The user maps in bpftrace's exit order (by name).
  std::vector<size_t> user_maps_by_name() const;

  // Prints stacks and symbols through a symbolizer whose symbol tables stay within
  // `budget_bytes`; `folded`: maps keyed by a stack print as folded lines (stack_text.h).
  void enable_symbols(size_t budget_bytes, bool folded);
  StackText* symbols() const { return symbols_.get(); }

  // How output must decode user map `user_map`.
  const MapDesc& desc(size_t user_map) const { return text_descs_[user_map]; }  // as last read()
  // Every entry of user map `user_map`.
  Result<MapEntries> read(size_t user_map) const;
  // clear(@m): deletes every key (a map without keys is zeroed, as bpftrace does).
  // zero(@m): sets every value to zero, keeping the keys.
  Status clear(size_t user_map) const;
  Status zero(size_t user_map) const;

 private:
  Result<std::vector<std::vector<uint8_t>>> keys_of(int kernel_map) const;

  const codegen::CompiledScript* script_ = nullptr;
  const lang::ProgramInfo* info_ = nullptr;
  uint32_t ncpus_ = 1;
  std::vector<sys::Fd> owned_;
  std::vector<int> fds_;
  std::vector<uint32_t> entries_;
  std::vector<int> kernel_of_user_;   // user map -> index into script maps, -1 when none
  std::vector<MapDesc> descs_;
  // read() sizes stack and symbol strings to the entries it reads: the text and the
  // descriptions change with every read.
  mutable PointText text_;
  mutable std::vector<MapDesc> text_descs_;
  std::unique_ptr<StackText> symbols_;
  bool folded_ = false;
  std::vector<bool> text_keys_;       // user map -> its key holds point ids, printed as text
  std::vector<bool> text_values_;     // user map -> its value does
};

// Whether a BPF_MAP_TYPE_* keeps one value per CPU.
bool is_per_cpu_map(uint32_t type);
// Bytes a lookup of this map fills: per-CPU maps hold round_up(value_size, 8) per possible CPU.
uint32_t lookup_value_size(const codegen::MapDef& def, uint32_t ncpus);

}  // namespace rawprobe::runtime
