#include "engine/probes/uprobe_attach.h"

#include <unistd.h>

#include <map>
#include <set>
#include <tuple>

#include "elf/hex.h"
#include "engine/probes/providers.h"
#include "engine/probes/targets.h"
#include "engine/probes/usdt_semaphore.h"
#include "engine/sys/attach.h"
#include "engine/sys/bpf_link.h"
#include "engine/sys/features.h"
#include "engine/sys/perf.h"
#include "engine/sys/stop_requested.h"
#include "engine/sys/tracefs.h"

namespace rawprobe::probes {
namespace {

bool uprobe_family(ProbeKind kind) {
  return kind == ProbeKind::Uprobe || kind == ProbeKind::Uretprobe || kind == ProbeKind::Usdt ||
         probe_type(kind).context.special;
}

// Where a point's perf event is opened: a pid follows that process on every CPU (cpu -1);
// every process needs a cpu, and a probe event's program runs wherever it is hit.
int cpu_for(pid_t pid) { return pid > 0 ? -1 : 0; }

}  // namespace

Result<const arch::Table*> process_arch(uint16_t e_machine, uint8_t elf_class,
                                        const std::string& path) {
  const arch::Table* binary = arch::by_machine(e_machine, elf_class);
  if (!binary)
    return make_error("unknown architecture (e_machine " + std::to_string(e_machine) + ")", path,
                      "rawprobe has no register table for it");
  const arch::Table* table = arch::for_process(*binary, arch::host());
  if (!table)
    return make_error(std::string(binary->name) + " binary cannot run on this " +
                          std::string(arch::host().name) + " kernel",
                      path, "probe a binary built for this machine");
  return table;
}

// Even for one point: releasing a uprobe_multi link waits out one RCU grace period in the
// kernel, a perf event and its bpf_link one each (~12 ms against ~65 ms in `make bench`'s
// short runs on a VM).
bool uses_uprobe_multi(std::span<const AttachPoint> points, const AttachOptions& options) {
  if (options.mode != AttachMode::Auto || points.empty()) return false;
  for (const AttachPoint& p : points)
    if (!uprobe_family(p.kind)) return false;
  return sys::has(sys::Feature::uprobe_multi);
}

UprobeRoute uprobe_route(std::span<const AttachPoint> points, const AttachOptions& options) {
  if (uses_uprobe_multi(points, options)) return UprobeRoute::Multi;
  if (options.mode == AttachMode::Legacy ||
      (options.mode == AttachMode::Auto && !sys::has(sys::Feature::uprobe_pmu)))
    return UprobeRoute::Legacy;
  return UprobeRoute::Pmu;
}

bool semaphore_in_process_memory(const AttachPoint& point) {
  return uprobe_family(point.kind) && point.ref_ctr_offset && !sys::has(sys::Feature::uprobe_ref_ctr);
}

Result<std::unique_ptr<Attachment>> attach_uprobes(std::span<const AttachPoint> points,
                                                   std::span<const int> prog_fds,
                                                   const AttachOptions& options) {
  Result<std::vector<int>> fds = fds_per_point(points, prog_fds);
  if (!fds) return fds.error();
  pause_before_attach_for_tests();
  auto set = std::make_unique<AttachmentSet>();
  UprobeRoute route = uprobe_route(points, options);
  // A block with a program per point (no cookies) cannot share one multi link.
  bool multi = route == UprobeRoute::Multi && prog_fds.size() == 1;
  bool legacy = route == UprobeRoute::Legacy ||
                (!multi && options.mode == AttachMode::Auto && !sys::has(sys::Feature::uprobe_pmu));
  // The kernel maintains semaphores through ref_ctr_offset in the multi link, and in the PMU
  // and tracefs paths since 4.20; otherwise hold them in the process's memory.
  bool kernel_counts = multi || sys::has(sys::Feature::uprobe_ref_ctr);
  if (!kernel_counts) {
    for (const AttachPoint& p : points) {
      if (!p.ref_ctr_offset) continue;
      pid_t pid = p.pid > 0 ? p.pid : options.semaphore_pid;
      if (pid <= 0)
        return make_error("USDT probe has a semaphore this kernel cannot maintain", p.name,
                          "the kernel lacks uprobe ref_ctr_offset (Linux 4.20); give -p PID or "
                          "-c CMD so rawprobe can set the semaphore in that process");
      Result<std::unique_ptr<AttachmentSet::Part>> held = hold_semaphore(pid, p.path, p.ref_ctr_offset);
      if (!held) return held.error();
      set->add(std::move(*held), 0, "semaphore via /proc/" + std::to_string(pid) + "/mem: " + p.name);
    }
  }
  bool cookies = sys::has(sys::Feature::perf_link) && prog_fds.size() == 1;
  if (multi) {
    // One link per (binary, pid, entry/return): uprobe_multi takes one path and one pid.
    std::map<std::tuple<std::string, pid_t, bool>, sys::UprobeMultiSpec> groups;
    std::set<std::tuple<std::string, pid_t, bool>> triggers;  // the links of BEGIN's or END's point
    for (size_t i = 0; i < points.size(); ++i) {
      const AttachPoint& p = points[i];
      if (p.kind == ProbeKind::Begin || p.kind == ProbeKind::End) triggers.insert({p.path, p.pid, p.is_return});
      sys::UprobeMultiSpec& spec = groups[{p.path, p.pid, p.is_return}];
      spec.path = p.path;
      spec.pid = p.pid > 0 ? static_cast<uint32_t>(p.pid) : 0;
      spec.retprobe = p.is_return;
      spec.offsets.push_back(p.file_offset);
      spec.ref_ctr_offsets.push_back(p.ref_ctr_offset);
      spec.cookies.push_back(i);
    }
    for (auto& [key, spec] : groups) {
      // A stop signal during a wildcard over many binaries (a link each): make no more links,
      // as the perf-event loop below does; BEGIN's and END's triggers are still made.
      if (sys::stop_requested() && !triggers.count(key)) continue;
      bool any_semaphore = false;
      for (uint64_t r : spec.ref_ctr_offsets) any_semaphore = any_semaphore || r;
      if (!any_semaphore) spec.ref_ctr_offsets.clear();
      Result<sys::Fd> link = sys::link_uprobe_multi(prog_fds[0], spec);
      if (!link) return Error(link.error());
      size_t n = spec.offsets.size();
      set->add_fd(std::move(*link), n,
               "uprobe_multi link: " + std::to_string(n) + " offsets in " + shown_path(spec.path));
    }
    return std::unique_ptr<Attachment>(std::move(set));
  }
  for (size_t i = 0; i < points.size(); ++i) {
    const AttachPoint& p = points[i];
    // Ctrl-C or SIGTERM while hundreds of perf events are opened one by one: skip the rest
    // with what is attached; the run then ends as on any stop signal and releases all of it.
    // END's trigger is still attached (blocks attach last to first, so a script that names
    // END before a wildcard attaches it after), or END would not run.
    if (sys::stop_requested() && p.kind != ProbeKind::End && p.kind != ProbeKind::Begin) continue;
    uint64_t cookie = cookies ? i : 0;
    if (legacy) {
      std::string probe = p.path + ":" + elf::hex(p.file_offset);
      if (p.ref_ctr_offset && sys::has(sys::Feature::uprobe_ref_ctr))
        probe += "(" + elf::hex(p.ref_ctr_offset) + ")";
      Result<sys::DynamicEvent> event =
          sys::DynamicEvent::create(sys::DynamicKind::uprobe, p.is_return, probe);
      if (!event) return event.error();
      Result<uint32_t> id = event->id();
      if (!id) return id.error();
      Result<sys::Fd> fd = sys::open_tracepoint(*id, p.pid > 0 ? p.pid : -1, cpu_for(p.pid), p.name);
      if (!fd) return fd.error();
      Result<sys::PerfAttachment> a = sys::attach_perf_event(std::move(*fd), (*fds)[i], cookie);
      if (!a) return a.error();
      std::string how = "uprobe_events " + event->group() + "/" + event->name() + " (" +
                        sys::attach_mode_name(a->mode()) + "): " + p.name;
      a->keep_event(std::move(*event));
      set->add_perf(std::move(*a), how);
      continue;
    }
    sys::UprobeTarget target;
    target.path = p.path;
    target.offset = p.file_offset;
    target.ref_ctr_offset = kernel_counts ? p.ref_ctr_offset : 0;
    target.retprobe = p.is_return;
    Result<sys::Fd> fd = sys::open_uprobe(target, p.pid > 0 ? p.pid : -1, cpu_for(p.pid));
    if (!fd) return fd.error();
    Result<sys::PerfAttachment> a = sys::attach_perf_event(std::move(*fd), (*fds)[i], cookie);
    if (!a) return a.error();
    std::string how = std::string("uprobe PMU perf event (") + sys::attach_mode_name(a->mode()) +
                      "): " + p.name;
    set->add_perf(std::move(*a), how);
  }
  return std::unique_ptr<Attachment>(std::move(set));
}

}  // namespace rawprobe::probes
