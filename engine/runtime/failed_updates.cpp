#include "engine/runtime/failed_updates.h"

#include "engine/sys/bpf_map.h"

namespace rawprobe::runtime {

Result<std::vector<std::string>> failed_update_warnings(const codegen::CompiledScript& script,
                                                        const lang::ProgramInfo& info, const ScriptMaps& maps) {
  std::vector<std::string> lines;
  if (script.stack_lost_map >= 0) {
    uint64_t lost = 0;
    uint32_t key = 0;
    if (Result<bool> found = sys::map_lookup(maps.fd(size_t(script.stack_lost_map)), &key, &lost); found && *found && lost)
      lines.push_back("WARNING: " + std::to_string(lost) + " stack" + (lost == 1 ? "" : "s") +
                      " could not be stored: the stack map is full (" +
                      std::to_string(maps.max_entries(script.stack_maps.front().map)) +
                      " stacks) or two stacks fell in one bucket (bpf_get_stackid: ENOMEM, EEXIST)");
  }
  if (script.failed_updates_map < 0) return lines;
  const codegen::MapDef& def = script.maps[size_t(script.failed_updates_map)];
  std::vector<uint64_t> counts(def.value_size / 8, 0);
  uint32_t key = 0;
  Result<bool> found = sys::map_lookup(maps.fd(size_t(script.failed_updates_map)), &key, counts.data());
  if (!found) {
    Error err = found.error();
    err.what = "read the count of failed map updates: " + err.what;
    return err;
  }
  for (size_t m : maps.user_maps_by_name()) {
    if (m >= counts.size() || counts[m] == 0) continue;
    std::string line = "WARNING: Failed to map_update_elem " + std::to_string(counts[m]) + " times for " +
                       info.maps[m].name;
    int k = maps.map_index_of_user_map(m);
    if (k >= 0) line += ", which holds at most " + std::to_string(script.maps[size_t(k)].max_entries) + " keys";
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace rawprobe::runtime
