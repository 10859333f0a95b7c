#include "engine/driver/privileges.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <string>

#include "engine/probes/probe_types.h"
#include "engine/probes/providers.h"
#include "engine/probes/uprobe_attach.h"
#include "engine/sys/capabilities.h"
#include "engine/sys/host_root.h"
#include "engine/sys/perf_paranoid.h"

namespace rawprobe::driver {

namespace {

using sys::Capability;

// The kernel's own answer to "may this process do `mode` on `path`", with its effective ids
// and capabilities (AT_EACCESS), as the open or write itself would get it: 0, or the errno.
int access_error(const std::string& path, int mode) {
  return faccessat(AT_FDCWD, path.c_str(), mode, AT_EACCESS) == 0 ? 0 : errno;
}

// Which tracefs file legacy attachment writes, and what the kernel says about writing it.
// The directory is mode 0700 and the event files 0640, both root's: another user needs
// CAP_DAC_OVERRIDE to write there (CAP_DAC_READ_SEARCH only reads), and mounting tracefs,
// when it is not mounted, needs CAP_SYS_ADMIN.
struct TracefsNeed {
  bool ok = true;
  Capability missing = Capability::dac_override;
  std::string what;
};
TracefsNeed tracefs_write_need(const char* events_file) {
  for (const char* candidate : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
    std::string dir = sys::host_path(candidate);
    int search = access_error(dir, X_OK);
    if (search == ENOENT) continue;
    std::string file = dir + "/" + events_file;
    if (search == 0 && access_error(dir + "/events", X_OK) == ENOENT) continue;  // not mounted here
    int write = search ? search : access_error(file, W_OK);
    if (write == EACCES || write == EPERM)
      return {false, Capability::dac_override, "writing " + file + " (legacy attachment)"};
    return {};
  }
  if (sys::has_capability(Capability::sys_admin)) return {};
  return {false, Capability::sys_admin, "mounting tracefs (not mounted; legacy attachment writes there)"};
}

// A capability to hold, what asks for it, and whether the kernel's CAP_SYS_ADMIN stands in.
struct Need {
  Capability cap;
  std::string what;
  bool held;
};

// Every capability the plan needs, in the order a run meets them.
std::vector<Need> needs_of(const PlannedRun& run) {
  std::vector<Need> needs;
  // bpf_capable(): every map and program once kernel.unprivileged_bpf_disabled is set (the
  // default of CONFIG_BPF_UNPRIV_DEFAULT_OFF, Linux 5.13); and tracing programs always.
  needs.push_back({Capability::bpf, "creating BPF maps and loading programs", sys::bpf_capable()});
  // perfmon_capable(): the kernel refuses kprobe, tracepoint and perf_event programs (every
  // probe type here, BEGIN and END included: they are uprobes) without it.
  needs.push_back({Capability::perfmon, "loading tracing programs and opening perf events", sys::perfmon_capable()});
  // The routes below ask feature probes, which load programs: not without these two.
  if (!needs[0].held || !needs[1].held || !run.attaching || !run.points) return needs;
  bool pmu = false, legacy_uprobe = false, legacy_kprobe = false, perf_events = false;
  for (const std::vector<probes::AttachPoint>& block : *run.points) {
    if (block.empty()) continue;
    probes::ProbeKind kind = block.front().kind;
    probes::PerfEvents opens = probes::probe_type(kind).perf_events;
    perf_events = perf_events || opens == probes::PerfEvents::Always;
    if (opens != probes::PerfEvents::UnlessMulti) continue;
    if (kind == probes::ProbeKind::Kprobe || kind == probes::ProbeKind::Kretprobe) {
      if (probes::uses_kprobe_multi(block, run.attach)) continue;
      for (const probes::AttachPoint& p : block) {
        Result<probes::KprobeRoute> route = probes::kprobe_point_route(p, run.attach);
        if (!route) continue;  // the attach reports it
        (*route == probes::KprobeRoute::Pmu ? pmu : legacy_kprobe) = true;
      }
      continue;
    }
    probes::UprobeRoute route = probes::uprobe_route(block, run.attach);
    if (route == probes::UprobeRoute::Pmu) pmu = true;
    if (route == probes::UprobeRoute::Legacy) legacy_uprobe = true;
  }
  perf_events = perf_events || pmu || legacy_uprobe || legacy_kprobe;
  // The uprobe and kprobe PMUs' event_init refuse (EACCES) without CAP_SYS_ADMIN, whatever
  // CAP_PERFMON says; --attach-mode=pmu on this kernel answers so for a nobody with the rest.
  if (pmu)
    needs.push_back({Capability::sys_admin, "opening uprobe or kprobe PMU events (the pmu route: --attach-mode=pmu, or auto without a multi link)",
                     sys::has_capability(Capability::sys_admin)});
  // Any perf event, where the kernel gives a paranoid level above 2 Debian's meaning (only
  // CAP_SYS_ADMIN opens one; seen on Debian's 6.1 and 6.12); sys/perf_paranoid.h asks it.
  else if (perf_events && sys::perf_events_refused())
    needs.push_back({Capability::sys_admin,
                     "opening perf events (kernel.perf_event_paranoid is " +
                         std::to_string(sys::perf_event_paranoid()) +
                         " and this kernel lets only CAP_SYS_ADMIN open them there; "
                         "sysctl kernel.perf_event_paranoid=2 lets CAP_PERFMON do it)",
                     false});
  for (auto [legacy, file] : {std::pair{legacy_uprobe, "uprobe_events"}, std::pair{legacy_kprobe, "kprobe_events"}}) {
    if (!legacy) continue;
    TracefsNeed t = tracefs_write_need(file);
    needs.push_back({t.missing, t.what, t.ok});
  }
  return needs;
}

// "cap_bpf,cap_perfmon,...": the setcap list for every capability the plan needs.
std::string grant_list(const std::vector<Need>& needs) {
  std::string list;
  for (const Need& n : needs) {
    std::string name = sys::capability_name(n.cap);
    for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (list.find(name) != std::string::npos) continue;
    list += (list.empty() ? "" : ",") + name;
  }
  return list;
}

}  // namespace

Status check_process_access(pid_t pid) {
  // Its files are read through /proc/PID/root, whose magic link asks ptrace_may_access
  // (PTRACE_MODE_READ_FSCREDS): another user's process needs CAP_SYS_PTRACE. Resolving the
  // link is the kernel's own answer. (/proc/PID/maps may still be readable: its check
  // differs, so it does not tell.)
  std::string root = "/proc/" + std::to_string(pid) + "/root/";
  int err = access_error(root, F_OK);
  if (err != EACCES && err != EPERM) return {};
  return sys::missing_capability(Capability::sys_ptrace, "reading " + root + " (another user's process)",
                                 "cap_bpf,cap_perfmon,cap_sys_ptrace");
}

Status check_privileges(const PlannedRun& run) {
  std::vector<Need> needs = needs_of(run);
  for (const Need& n : needs)
    if (!n.held) return sys::missing_capability(n.cap, n.what, grant_list(needs));
  return {};
}

}  // namespace rawprobe::driver
