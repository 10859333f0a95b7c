// Kernel feature probes (DESIGN.md practice 6): each asks the running kernel directly (a
// tiny map, program or link attempt, a PMU file), runs once per process and is cached.
// Providers pick their ordered fallbacks from these; `rawprobe --info` prints them all with
// the kernel version each needs.
#pragma once
#include <span>
#include <string>
#include <string_view>

namespace rawprobe::sys {

enum class Feature {
  tracefs,            // tracefs mounted (at /sys/kernel/tracing or under debugfs)
  uprobe_pmu,         // perf_event_open of uprobes without tracefs
  kprobe_pmu,         // the same for kprobes
  uprobe_ref_ctr,     // uprobe PMU's ref_ctr_offset: USDT semaphores maintained by the kernel
  ringbuf,            // BPF_MAP_TYPE_RINGBUF
  perf_link,          // BPF_LINK_CREATE with BPF_PERF_EVENT (also: bpf_get_attach_cookie)
  uprobe_multi,       // BPF_TRACE_UPROBE_MULTI links
  kprobe_multi,       // BPF_TRACE_KPROBE_MULTI links
  probe_read_user,    // bpf_probe_read_user helper
  probe_read_kernel,  // bpf_probe_read_kernel helper
  bounded_loops,      // back-edges accepted by the verifier
  isa_v2,             // JLT/JLE/JSLT/JSLE
  isa_v3,             // JMP32 (and 32-bit ALU compares)
  isa_v4,             // sign-extending moves/loads, sdiv/smod, bswap, gotol
  hash_on_demand,     // hash maps without preallocation (BPF_F_NO_PREALLOC) in every program
                      // type: elements come from bpf_mem_alloc, safe in any context
  kernel_btf,         // /sys/kernel/btf/vmlinux: the kernel's C types (engine/btf)
  jiffies64,          // bpf_jiffies64 helper (the `jiffies` builtin)
  send_signal,        // bpf_send_signal helper (signal())
  for_each_map_elem,  // bpf_for_each_map_elem helper (for loops over maps)
  loop,               // bpf_loop helper (for loops over ranges)
  ktime_get_boot_ns,  // bpf_ktime_get_boot_ns helper (nsecs(boot), nsecs(sw_tai))
  ktime_get_tai_ns,   // bpf_ktime_get_tai_ns helper (nsecs(tai))
  ns_current_pid_tgid,  // bpf_get_ns_current_pid_tgid helper (pid and tid in a pid namespace)
  trampoline,         // fentry/fexit: a tracing program linked through a BPF trampoline
  bpf_iter,           // iter: BPF iterators (BPF_TRACE_ITER links, BPF_ITER_CREATE)
  breakpoint,         // watchpoint: perf_event_open(PERF_TYPE_BREAKPOINT) on this process
  probe_write_user,   // bpf_probe_write_user in tracing programs (write_user()): gone under
                      // kernel lockdown (integrity or confidentiality)
  openat2,            // openat2(RESOLVE_IN_ROOT): paths inside /proc/PID/root (sys::open_in_root)
};

// The BTF id of a vmlinux function, which the trampoline and iterator probes load against.
// engine/sys reads no BTF itself: the program's entry point sets this (from engine/btf);
// until then those two probes answer "not probed".
void set_btf_function_id_lookup(uint32_t (*lookup)(const char* function));

struct FeatureInfo {
  Feature feature;
  std::string_view key;    // "uprobe_ref_ctr": the enumerator's name, for RAWPROBE_PRETEND_MISSING
  std::string_view name;   // as --info prints it
  std::string_view since;  // first mainline kernel with it
};

// Every feature, in --info order.
std::span<const FeatureInfo> all_features();
const FeatureInfo& feature_info(Feature feature);

struct FeatureState {
  bool available = false;
  std::string detail;  // "type 9", "EINVAL from BPF_LINK_CREATE", ...
};

// Probes on first use (thread-safe), then returns the cached answer. Features named in the
// environment variable RAWPROBE_PRETEND_MISSING (comma-separated keys) are reported missing
// without a probe: the fallbacks of older kernels, run on this one.
const FeatureState& feature_state(Feature feature);
inline bool has(Feature feature) { return feature_state(feature).available; }
// Whether RAWPROBE_PRETEND_MISSING names it: for a fallback that needs no probe of its own
// (open_in_root tries openat2 anyway and walks on ENOSYS), so a run asks nothing more.
bool pretended_missing(Feature feature);

// The text of `rawprobe --info`: kernel release and machine (uname), then one line per
// feature: name, yes/no with detail, and the kernel version it needs.
std::string info_report();

}  // namespace rawprobe::sys
