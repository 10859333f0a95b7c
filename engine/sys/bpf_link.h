// BPF_LINK_CREATE: attaching a loaded program through a bpf_link (an fd whose close
// detaches). Three kinds rawprobe uses:
//   perf_event    (5.15) a program on a perf event fd (uprobe/kprobe/tracepoint PMU event)
//   kprobe_multi  (5.18) one program on many kernel functions
//   uprobe_multi  (6.6)  one program on many offsets of one binary, with USDT semaphores,
//                        cookies and a pid filter
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

Result<Fd> link_perf_event(int prog_fd, int perf_fd, uint64_t cookie = 0);

struct UprobeMultiSpec {
  std::string path;                       // the binary (or library)
  std::vector<uint64_t> offsets;          // file offsets
  std::vector<uint64_t> ref_ctr_offsets;  // empty, or one per offset (USDT semaphores)
  std::vector<uint64_t> cookies;          // empty, or one per offset
  uint32_t pid = 0;                       // 0: every process
  bool retprobe = false;
};
// The program must have been loaded with expected_attach_type BPF_TRACE_UPROBE_MULTI.
Result<Fd> link_uprobe_multi(int prog_fd, const UprobeMultiSpec& spec);

struct KprobeMultiSpec {
  std::vector<std::string> symbols;  // either symbols...
  std::vector<uint64_t> addrs;       // ...or addresses
  std::vector<uint64_t> cookies;     // empty, or one per target
  bool retprobe = false;
};
// The program must have been loaded with expected_attach_type BPF_TRACE_KPROBE_MULTI.
Result<Fd> link_kprobe_multi(int prog_fd, const KprobeMultiSpec& spec);

}  // namespace rawprobe::sys
