// The raw tracepoints the kernel's BTF declares. Every tracepoint a BPF program can attach to
// gets a typedef `btf_trace_NAME` in the BTF of vmlinux or of its module, made by the same
// macros that register it for BPF_RAW_TRACEPOINT_OPEN (include/trace/bpf_probe.h). That
// includes the tracepoints with no trace event and hence nothing in tracefs (DECLARE_TRACE
// alone: sched_update_nr_running_tp, pelt_cfs_tp, ...), which only raw tracepoints reach.
//
// Only the string section of each /sys/kernel/btf/* file is read (BTF's header, uapi
// linux/btf.h; all offsets relative to the end of the header):
//   magic 0xeB9F (u16) | version (u8) | flags (u8) | hdr_len | type_off | type_len | str_off | str_len
//   ... strings at hdr_len + str_off, str_len bytes of NUL-terminated names
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace rawprobe::probes {

// The NAMEs of the `btf_trace_NAME` strings of one BTF blob, in blob order; empty when it is
// not BTF or its string section lies outside the blob.
std::vector<std::string> btf_trace_names_in(std::string_view blob);

// Those of every file under /sys/kernel/btf (host_root, engine/sys/host_root.h), sorted and
// unique; empty when the kernel publishes no BTF (before 5.4, or no CONFIG_DEBUG_INFO_BTF).
std::vector<std::string> btf_trace_names();

}  // namespace rawprobe::probes
