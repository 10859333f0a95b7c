#include "engine/sys/bpf_map.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/sys/bpf_call.h"
#include "engine/sys/errors.h"

namespace rawprobe::sys {

using detail::ptr_to_u64;

namespace {

std::string map_object(int map_fd) { return "map fd " + std::to_string(map_fd); }

// A command whose ENOENT means "no such key" rather than failure.
Result<bool> keyed(int cmd, union bpf_attr& attr, uint32_t size, const char* what, int map_fd) {
  BpfCall call{cmd, &attr, size};
  Outcome out = invoke(call);
  if (out.ok()) return true;
  if (out.err == ENOENT) return false;
  return call_error(what, call, out, map_object(map_fd));
}

// The element commands share one layout: map_fd, key, then value (next_key for
// GET_NEXT_KEY, the same slot of the union).
static_assert(offsetof(union bpf_attr, value) == offsetof(union bpf_attr, next_key));
union bpf_attr element_attr(int map_fd, const void* key, const void* value_or_next_key) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.map_fd = map_fd;
  attr.key = ptr_to_u64(key);
  attr.value = ptr_to_u64(value_or_next_key);
  return attr;
}

}  // namespace

Result<Fd> map_create(const MapSpec& spec) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.map_type = spec.type;
  attr.key_size = spec.key_size;
  attr.value_size = spec.value_size;
  attr.max_entries = spec.max_entries;
  attr.map_flags = spec.flags;
  std::memcpy(attr.map_name, spec.name.data(), std::min(spec.name.size(), sizeof attr.map_name - 1));
  return detail::bpf_new_fd(BPF_MAP_CREATE, &attr, RAWPROBE_BPF_ATTR_END(map_name), "create map",
                            spec.name);
}

Result<bool> map_lookup(int map_fd, const void* key, void* value) {
  union bpf_attr attr = element_attr(map_fd, key, value);
  return keyed(BPF_MAP_LOOKUP_ELEM, attr, RAWPROBE_BPF_ATTR_END(flags), "look up map element", map_fd);
}

Status map_update(int map_fd, const void* key, const void* value, uint64_t flags) {
  union bpf_attr attr = element_attr(map_fd, key, value);
  attr.flags = flags;
  return detail::bpf_status(BPF_MAP_UPDATE_ELEM, &attr, RAWPROBE_BPF_ATTR_END(flags),
                            "update map element", map_object(map_fd));
}

Result<bool> map_delete(int map_fd, const void* key) {
  union bpf_attr attr = element_attr(map_fd, key, nullptr);
  return keyed(BPF_MAP_DELETE_ELEM, attr, RAWPROBE_BPF_ATTR_END(key), "delete map element", map_fd);
}

Result<bool> map_next_key(int map_fd, const void* key, void* next_key) {
  union bpf_attr attr = element_attr(map_fd, key, next_key);
  return keyed(BPF_MAP_GET_NEXT_KEY, attr, RAWPROBE_BPF_ATTR_END(next_key), "get next map key", map_fd);
}

}  // namespace rawprobe::sys
