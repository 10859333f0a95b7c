// BPF_PROG_TYPE_TRACING attachments: fentry/fexit through a BPF trampoline, and iterators.
//   - link_tracing: BPF_LINK_CREATE (5.11 for fentry/fexit through links), falling back to
//     BPF_RAW_TRACEPOINT_OPEN with a NULL name (5.5), which attaches a tracing program where
//     its attach_btf_id says.
//   - module_btf_fd: the BTF object of a kernel module, for attach_btf_obj_fd (5.11).
//   - iter_create: a readable fd that runs an iterator program once per read() pass.
#pragma once
#include <cstdint>
#include <string>

#include "engine/base/result.h"
#include "engine/sys/fd.h"

namespace rawprobe::sys {

// How a tracing program ended up attached, for --explain and the attach report.
enum class TracingRoute { Link, RawTracepointOpen };

struct TracingLink {
  Fd fd;
  TracingRoute route = TracingRoute::Link;
};

// Attaches a loaded fentry/fexit program (expected_attach_type `attach_type`). `object`
// names the target in errors ("fentry:vfs_read").
Result<TracingLink> link_tracing(int prog_fd, uint32_t attach_type, const std::string& object);

// An iterator link (BPF_TRACE_ITER) with no parameters (task, task_file, ... over all tasks).
Result<Fd> link_iter(int prog_fd, const std::string& object);
// BPF_ITER_CREATE: each read() of the returned fd runs the program over the next objects.
Result<Fd> iter_create(int link_fd, const std::string& object);
// Reads an iterator fd until its end (read() returns 0): the program has then seen every
// object. What the program wrote to the seq_file (bpf_seq_printf; rawprobe's programs send
// their output through the event buffer instead) is discarded.
Status iter_read_all(int iter_fd);

// The fd of the kernel's BTF object named `module` (as /sys/kernel/btf/NAME), found by
// walking BPF_BTF_GET_NEXT_ID. An error when no loaded BTF object has that name.
Result<Fd> module_btf_fd(const std::string& module);

}  // namespace rawprobe::sys
