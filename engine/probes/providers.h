// Internal to engine/probes: the provider objects (one per file) and what several of them
// share. Each kind's row in probe_types.cpp names one of these.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "engine/probes/provider.h"

namespace rawprobe::probes {

const Provider& begin_end_provider();  // begin_end.cpp
const Provider& uprobe_provider();     // uprobe.cpp (uprobe and uretprobe)
const Provider& usdt_provider();       // usdt.cpp
const Provider& tracepoint_provider(); // tracepoint.cpp
const Provider& rawtracepoint_provider();  // rawtracepoint.cpp
const Provider& kprobe_provider();     // kprobe.cpp (kprobe and kretprobe)
const Provider& interval_provider();   // interval.cpp
const Provider& profile_provider();    // profile.cpp
const Provider& software_provider();   // perf_events.cpp
const Provider& hardware_provider();   // perf_events.cpp
const Provider& fentry_provider();     // fentry.cpp (fentry and fexit)
const Provider& iter_provider();       // iter.cpp
const Provider& watchpoint_provider(); // watchpoint.cpp

// The one instance of provider class P, made on first use: what the factories above return.
template <class P>
const Provider& the_provider() {
  static const P provider;
  return provider;
}

// Whether a uprobe-family block (uprobe, uretprobe, usdt, BEGIN, END) will be attached with
// one uprobe_multi link per binary; load_plan and uprobe_attach.cpp both ask this, so the
// program's expected_attach_type always matches the path attach() takes.
bool uses_uprobe_multi(std::span<const AttachPoint> points, const AttachOptions& options);
// The same for kprobe_multi (kprobe wildcard sets, auto mode, kprobe_multi available).
bool uses_kprobe_multi(std::span<const AttachPoint> points, const AttachOptions& options);

// The hint for a spec that names nothing there is: "did you mean 'KIND:a', 'KIND:b'? (list
// them with -l 'KIND:*')" with up to five of the `close` names, the listing alone when there
// are none (close_names_hint.cpp). Without `list_after_names` the names end the hint.
std::string close_names_hint(const std::string& kind, const std::vector<std::string>& close,
                             bool list_after_names = true);

// A point of a kprobe-family or fentry-family spec at kernel function `func` of `module`:
// the spec's kind, whether it fires on return, this machine's arch (kprobe.cpp).
AttachPoint kernel_function_point(const lang::ProbeSpec& spec, const std::string& func, const std::string& module);

// How attach() takes one kprobe point to the kernel when no kprobe_multi link carries the
// block: the kprobe PMU, or a kprobe_events line (--attach-mode=legacy, no PMU, or a
// kretprobe maxactive, which only "r<N>:" can set). An error where neither fits (maxactive
// with --attach-mode=pmu). --explain prints the same choice.
enum class KprobeRoute { Pmu, Legacy };
Result<KprobeRoute> kprobe_point_route(const AttachPoint& point, const AttachOptions& options);
// The PROBE part of a point's kprobe_events line: "[MODULE:]FUNC+OFFSET".
std::string kprobe_events_target(const AttachPoint& point);

// kprobe.cpp: whether this kernel has kprobes at all (PMU or kprobe_events), and the
// tracepoints that cover what a kernel function does (for the no-CONFIG_KPROBES error).
bool kprobes_available();
std::vector<std::string> tracepoints_for_function(const std::string& func);

// --explain pieces several providers share (explain.cpp).
// uprobe, uretprobe, usdt: symbol or note -> address -> file offset -> boundary, then the route.
Status explain_user_probe(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out);
// kprobe, kretprobe: the function, then kprobe_multi, the PMU or a kprobe_events line.
Status explain_kprobes(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out);
// Expands the spec as a run with these options would, prints each point's program type, then
// what `describe` says of the point (`all`: every point of the spec).
using PointExplainer =
    std::function<Status(const AttachPoint& point, std::span<const AttachPoint> all)>;
Status explain_points(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out,
                      const PointExplainer& describe);

// Checks that prog_fds has one fd, or one per point; returns the fd for point i.
Result<std::vector<int>> fds_per_point(std::span<const AttachPoint> points,
                                       std::span<const int> prog_fds);

// Attaches point by point: `one` puts point i, run by prog_fd, into the set. `cookie` is i
// when one program serves several points (bpf_get_attach_cookie() tells them apart), else 0.
using AttachOne = std::function<Status(const AttachPoint& point, int prog_fd, uint64_t cookie,
                                       AttachmentSet& set)>;
Result<std::unique_ptr<Attachment>> attach_each(std::span<const AttachPoint> points,
                                                std::span<const int> prog_fds,
                                                const AttachOne& one);

}  // namespace rawprobe::probes
