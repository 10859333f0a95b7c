#include "engine/sys/bpf_info.h"

#include <algorithm>
#include <cstring>

#include "engine/sys/bpf_call.h"

namespace rawprobe::sys {

using detail::ptr_to_u64;

namespace {

// One BPF_OBJ_GET_INFO_BY_FD into `info` of `len` bytes. The kernel fills at most `len`
// bytes and zero-checks nothing beyond what it knows, so a struct from newer headers is fine.
Status get_info(int fd, void* info, uint32_t len, const char* what) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.info.bpf_fd = fd;
  attr.info.info_len = len;
  attr.info.info = ptr_to_u64(info);
  return detail::bpf_status(BPF_OBJ_GET_INFO_BY_FD, &attr, RAWPROBE_BPF_ATTR_END(info.info), what,
                            "fd " + std::to_string(fd));
}

std::string name_of(const char (&name)[BPF_OBJ_NAME_LEN]) {
  return std::string(name, ::strnlen(name, BPF_OBJ_NAME_LEN));
}

}  // namespace

Result<ProgInfo> prog_info(int prog_fd) {
  // First call: the sizes. Second call: the arrays, into buffers of those sizes.
  bpf_prog_info sizes;
  std::memset(&sizes, 0, sizeof sizes);
  if (Status st = get_info(prog_fd, &sizes, sizeof sizes, "read program info"); !st) return st.error();

  ProgInfo out;
  out.xlated.resize(sizes.xlated_prog_len / sizeof(bpf::Insn));
  out.map_ids.resize(sizes.nr_map_ids);
  bpf_prog_info info;
  std::memset(&info, 0, sizeof info);
  info.xlated_prog_len = static_cast<uint32_t>(out.xlated.size() * sizeof(bpf::Insn));
  info.xlated_prog_insns = ptr_to_u64(out.xlated.data());
  info.nr_map_ids = static_cast<uint32_t>(out.map_ids.size());
  info.map_ids = ptr_to_u64(out.map_ids.data());
  if (Status st = get_info(prog_fd, &info, sizeof info, "read program info"); !st) return st.error();

  out.type = info.type;
  out.id = info.id;
  out.name = name_of(info.name);
  std::memcpy(out.tag.data(), info.tag, out.tag.size());
  out.jited_size = info.jited_prog_len;
  out.verified_insns = info.verified_insns;
  out.run_time_ns = info.run_time_ns;
  out.run_cnt = info.run_cnt;
  // The kernel reports the full sizes again; keep what it actually copied.
  out.xlated.resize(std::min<size_t>(out.xlated.size(), info.xlated_prog_len / sizeof(bpf::Insn)));
  out.map_ids.resize(std::min<size_t>(out.map_ids.size(), info.nr_map_ids));
  return out;
}

Result<MapInfo> map_info(int map_fd) {
  bpf_map_info info;
  std::memset(&info, 0, sizeof info);
  if (Status st = get_info(map_fd, &info, sizeof info, "read map info"); !st) return st.error();
  MapInfo out;
  out.type = info.type;
  out.id = info.id;
  out.name = name_of(info.name);
  out.key_size = info.key_size;
  out.value_size = info.value_size;
  out.max_entries = info.max_entries;
  out.flags = info.map_flags;
  return out;
}

}  // namespace rawprobe::sys
