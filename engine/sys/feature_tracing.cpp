// The feature probes of the BTF-typed probe types and of watchpoints. A tracing program is
// verified against one kernel function, so its probe needs that function's BTF id, which the
// entry point's lookup gives (set_btf_function_id_lookup): vfs_read for fentry (any traceable
// function would do; it exists on every kernel rawprobe supports), bpf_iter_task for iterators.
#include <linux/bpf.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include <atomic>
#include <vector>

#include "bpfasm/insn.h"
#include "engine/sys/bpf_prog.h"
#include "engine/sys/feature_probes.h"
#include "engine/sys/perf.h"
#include "engine/sys/tracing.h"

namespace rawprobe::sys {
namespace {

std::atomic<uint32_t (*)(const char*)> g_lookup{nullptr};

Result<Fd> load_tracing(uint32_t attach_type, uint32_t btf_id) {
  return load_probe_program(BPF_PROG_TYPE_TRACING, return_zero_program(), attach_type, btf_id);
}

}  // namespace

void set_btf_function_id_lookup(uint32_t (*lookup)(const char*)) { g_lookup = lookup; }

FeatureState probe_trampoline() {
  auto lookup = g_lookup.load();
  uint32_t id = lookup ? lookup("vfs_read") : 0;
  if (!id) return {false, lookup ? "no vfs_read in the kernel's BTF" : "not probed (no BTF lookup)"};
  Result<Fd> prog = load_tracing(BPF_TRACE_FENTRY, id);
  if (!prog) return {false, cause(prog.error())};
  Result<TracingLink> link = link_tracing(prog->get(), BPF_TRACE_FENTRY, "feature probe");
  if (!link) return {false, cause(link.error())};
  return {true, link->route == TracingRoute::Link ? "fentry linked on vfs_read" : "fentry attached (raw tracepoint open)"};
}

FeatureState probe_bpf_iter() {
  auto lookup = g_lookup.load();
  uint32_t id = lookup ? lookup("bpf_iter_task") : 0;
  if (!id) return {false, lookup ? "no bpf_iter_task in the kernel's BTF" : "not probed (no BTF lookup)"};
  Result<Fd> prog = load_tracing(BPF_TRACE_ITER, id);
  if (!prog) return {false, cause(prog.error())};
  Result<Fd> link = link_iter(prog->get(), "feature probe");
  if (!link) return {false, cause(link.error())};
  return {true, "task iterator linked"};
}

FeatureState probe_breakpoint() {
  static volatile long watched = 0;
  perf_event_attr attr{};
  attr.type = PERF_TYPE_BREAKPOINT;
  attr.bp_type = HW_BREAKPOINT_W;
  attr.bp_addr = reinterpret_cast<uintptr_t>(&watched);
  attr.bp_len = HW_BREAKPOINT_LEN_8;
  attr.sample_period = 1;
  attr.disabled = 1;
  Result<Fd> fd = perf_event_open(attr, 0, -1, -1, "feature probe");
  if (!fd) return {false, cause(fd.error())};
  return {true, "write breakpoint opened on this process"};
}

}  // namespace rawprobe::sys
