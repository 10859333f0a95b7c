// BPF_OBJ_GET_INFO_BY_FD for programs and maps: what the kernel made of what we loaded
// (--dump=xlated prints `xlated` with our disassembler, --dump=jited-size the JIT size).
#pragma once
#include <array>
#include <cstdint>
#include <linux/bpf.h>
#include <string>
#include <vector>

#include "bpfasm/insn.h"
#include "engine/base/result.h"

namespace rawprobe::sys {

struct ProgInfo {
  uint32_t type = 0;
  uint32_t id = 0;
  std::string name;
  std::array<uint8_t, BPF_TAG_SIZE> tag{};
  std::vector<bpf::Insn> xlated;  // the program after the verifier's rewrites
  uint32_t jited_size = 0;       // bytes of native code; 0 when not JITed
  uint32_t verified_insns = 0;   // 5.16+; 0 before
  std::vector<uint32_t> map_ids;
  // Counted only while run-time stats are on (bpf_stats.h); 5.1+.
  uint64_t run_time_ns = 0;
  uint64_t run_cnt = 0;
};

struct MapInfo {
  uint32_t type = 0;
  uint32_t id = 0;
  std::string name;
  uint32_t key_size = 0;
  uint32_t value_size = 0;
  uint32_t max_entries = 0;
  uint32_t flags = 0;
};

Result<ProgInfo> prog_info(int prog_fd);
Result<MapInfo> map_info(int map_fd);

}  // namespace rawprobe::sys
