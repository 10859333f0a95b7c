// uapi definitions newer than the build host's headers. Debian 12's linux-libc-dev is 6.1;
// BPF_TRACE_UPROBE_MULTI and its link_create layout arrived in 6.6 ("bpf: Add multi uprobe
// link", with cookies and the pid filter added in the same release). We define the
// layout ourselves and check it against the parts of union bpf_attr that 6.1 already has, so
// a static binary built on an old host still speaks the new ABI.
#pragma once
#include <cstddef>
#include <cstdint>
#include <linux/bpf.h>

namespace rawprobe::sys::uapi {

// enum bpf_attach_type: BPF_LSM_CGROUP (6.0) is followed by BPF_STRUCT_OPS, BPF_NETFILTER,
// BPF_TCX_INGRESS, BPF_TCX_EGRESS (6.4/6.6) and then BPF_TRACE_UPROBE_MULTI (6.6).
inline constexpr uint32_t kTraceUprobeMulti = BPF_LSM_CGROUP + 5;
static_assert(kTraceUprobeMulti == 48);
// link_create.uprobe_multi.flags: attach to the return instead of the entry.
inline constexpr uint32_t kUprobeMultiReturn = 1u << 0;

// The BPF_LINK_CREATE part of union bpf_attr with the 6.6 uprobe_multi member:
//
//   offset: 0         4           8             12      16     24        32                40        48    52      56    60
//           | prog_fd | target_fd | attach_type | flags | path | offsets | ref_ctr_offsets | cookies | cnt | flags | pid |
struct LinkCreateUprobeMulti {
  uint32_t prog_fd;
  uint32_t target_fd;
  uint32_t attach_type;
  uint32_t flags;
  alignas(8) uint64_t path;             // const char* of the binary
  alignas(8) uint64_t offsets;          // const u64[cnt]: file offsets
  alignas(8) uint64_t ref_ctr_offsets;  // const u64[cnt] or 0: USDT semaphores
  alignas(8) uint64_t cookies;          // const u64[cnt] or 0: bpf_get_attach_cookie()
  uint32_t cnt;
  uint32_t multi_flags;  // kUprobeMultiReturn
  uint32_t pid;          // 0: every process
};

// The fixed head must match the 6.1 header, and the union member must start where the
// other link_create variants do.
static_assert(offsetof(LinkCreateUprobeMulti, prog_fd) == offsetof(union bpf_attr, link_create.prog_fd));
static_assert(offsetof(LinkCreateUprobeMulti, target_fd) == offsetof(union bpf_attr, link_create.target_fd));
static_assert(offsetof(LinkCreateUprobeMulti, attach_type) == offsetof(union bpf_attr, link_create.attach_type));
static_assert(offsetof(LinkCreateUprobeMulti, flags) == offsetof(union bpf_attr, link_create.flags));
static_assert(offsetof(LinkCreateUprobeMulti, path) == offsetof(union bpf_attr, link_create.perf_event.bpf_cookie));
static_assert(offsetof(LinkCreateUprobeMulti, path) == offsetof(union bpf_attr, link_create.kprobe_multi.flags));
static_assert(offsetof(LinkCreateUprobeMulti, cookies) == 40);
static_assert(offsetof(LinkCreateUprobeMulti, cnt) == 48);
static_assert(offsetof(LinkCreateUprobeMulti, pid) == 56);
static_assert(sizeof(LinkCreateUprobeMulti) <= sizeof(union bpf_attr));

}  // namespace rawprobe::sys::uapi
