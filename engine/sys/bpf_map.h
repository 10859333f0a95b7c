// BPF maps: BPF_MAP_CREATE and the element commands.
#pragma once
#include <cstdint>
#include <string>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

struct MapSpec {
  uint32_t type = 0;  // BPF_MAP_TYPE_*
  uint32_t key_size = 0;
  uint32_t value_size = 0;
  uint32_t max_entries = 0;
  uint32_t flags = 0;  // BPF_F_*
  std::string name;    // kernel keeps the first 15 bytes; shown by bpftool and errors
};

Result<Fd> map_create(const MapSpec& spec);

// BPF_MAP_LOOKUP_ELEM: true and `value` filled when the key exists, false when it does not
// (ENOENT), an Error otherwise. Per-CPU maps fill value_size rounded up to 8 times the
// number of possible CPUs.
Result<bool> map_lookup(int map_fd, const void* key, void* value);
// BPF_MAP_UPDATE_ELEM with BPF_ANY / BPF_NOEXIST / BPF_EXIST.
Status map_update(int map_fd, const void* key, const void* value, uint64_t flags = 0);
// BPF_MAP_DELETE_ELEM: false when the key did not exist.
Result<bool> map_delete(int map_fd, const void* key);
// BPF_MAP_GET_NEXT_KEY: the key after `key` (the first key when `key` is nullptr) into
// `next_key`; false at the end of the map.
Result<bool> map_next_key(int map_fd, const void* key, void* next_key);

}  // namespace rawprobe::sys
