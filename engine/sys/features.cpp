#include "engine/sys/features.h"

#include <algorithm>
#include <array>
#include <mutex>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>
#include <sys/utsname.h>

#include "engine/sys/feature_probes.h"

namespace rawprobe::sys {

namespace {

constexpr FeatureInfo kFeatures[] = {
    {Feature::tracefs, "tracefs", "tracefs", "4.1"},
    {Feature::uprobe_pmu, "uprobe_pmu", "uprobe PMU", "4.17"},
    {Feature::kprobe_pmu, "kprobe_pmu", "kprobe PMU", "4.17"},
    {Feature::uprobe_ref_ctr, "uprobe_ref_ctr", "uprobe ref_ctr_offset (USDT semaphores)", "4.20"},
    {Feature::ringbuf, "ringbuf", "ring buffer map", "5.8"},
    {Feature::perf_link, "perf_link", "bpf_link for perf events", "5.15"},
    {Feature::uprobe_multi, "uprobe_multi", "uprobe_multi link", "6.6"},
    {Feature::kprobe_multi, "kprobe_multi", "kprobe_multi link", "5.18"},
    {Feature::probe_read_user, "probe_read_user", "bpf_probe_read_user", "5.5"},
    {Feature::probe_read_kernel, "probe_read_kernel", "bpf_probe_read_kernel", "5.5"},
    {Feature::bounded_loops, "bounded_loops", "bounded loops", "5.3"},
    {Feature::isa_v2, "isa_v2", "ISA v2 (JLT/JLE/JSLT/JSLE)", "4.14"},
    {Feature::isa_v3, "isa_v3", "ISA v3 (JMP32)", "5.1"},
    {Feature::isa_v4, "isa_v4", "ISA v4 (sign extension, sdiv, bswap, gotol)", "6.6"},
    {Feature::hash_on_demand, "hash_on_demand", "hash maps allocated on update (bpf_mem_alloc)", "6.1"},
    {Feature::kernel_btf, "kernel_btf", "kernel BTF (/sys/kernel/btf)", "5.4"},
    {Feature::jiffies64, "jiffies64", "bpf_jiffies64", "5.5"},
    {Feature::send_signal, "send_signal", "bpf_send_signal", "5.3"},
    {Feature::for_each_map_elem, "for_each_map_elem", "bpf_for_each_map_elem", "5.13"},
    {Feature::loop, "loop", "bpf_loop", "5.17"},
    {Feature::ktime_get_boot_ns, "ktime_get_boot_ns", "bpf_ktime_get_boot_ns", "5.8"},
    {Feature::ktime_get_tai_ns, "ktime_get_tai_ns", "bpf_ktime_get_tai_ns", "6.1"},
    {Feature::ns_current_pid_tgid, "ns_current_pid_tgid", "bpf_get_ns_current_pid_tgid", "5.7"},
    {Feature::trampoline, "trampoline", "fentry/fexit (BPF trampoline)", "5.5"},
    {Feature::bpf_iter, "bpf_iter", "BPF iterators (iter:)", "5.8"},
    {Feature::breakpoint, "breakpoint", "hardware breakpoints (watchpoint:)", "2.6.33"},
    {Feature::probe_write_user, "probe_write_user", "bpf_probe_write_user (not under lockdown)", "4.8"},
    {Feature::openat2, "openat2", "openat2 RESOLVE_IN_ROOT (else a rooted walk)", "5.6"},
};
constexpr size_t kCount = std::size(kFeatures);

FeatureState run_probe(Feature f) {
  switch (f) {
    case Feature::tracefs: return probe_tracefs();
    case Feature::uprobe_pmu: return probe_pmu("uprobe");
    case Feature::kprobe_pmu: return probe_pmu("kprobe");
    case Feature::uprobe_ref_ctr: return probe_uprobe_ref_ctr();
    case Feature::ringbuf: return probe_ringbuf();
    case Feature::perf_link: return probe_perf_link();
    case Feature::uprobe_multi: return probe_uprobe_multi();
    case Feature::kprobe_multi: return probe_kprobe_multi();
    case Feature::probe_read_user: return probe_helper(kHelperProbeReadUser);
    case Feature::probe_read_kernel: return probe_helper(kHelperProbeReadKernel);
    case Feature::bounded_loops: return probe_bounded_loops();
    case Feature::isa_v2: return probe_isa(2);
    case Feature::isa_v3: return probe_isa(3);
    case Feature::isa_v4: return probe_isa(4);
    case Feature::hash_on_demand: return probe_hash_on_demand();
    case Feature::kernel_btf: return probe_kernel_btf();
    case Feature::jiffies64: return probe_helper(kHelperJiffies64);
    case Feature::send_signal: return probe_helper(kHelperSendSignal);
    case Feature::for_each_map_elem: return probe_callback_helper(kHelperForEachMapElem);
    case Feature::loop: return probe_callback_helper(kHelperLoop);
    case Feature::ktime_get_boot_ns: return probe_helper(kHelperKtimeGetBootNs);
    case Feature::ktime_get_tai_ns: return probe_helper(kHelperKtimeGetTaiNs);
    case Feature::ns_current_pid_tgid: return probe_callback_helper(kHelperGetNsCurrentPidTgid);
    case Feature::trampoline: return probe_trampoline();
    case Feature::bpf_iter: return probe_bpf_iter();
    case Feature::breakpoint: return probe_breakpoint();
    // Its source must be memory: scalars are refused (EACCES) where the helper exists.
    case Feature::probe_write_user: return probe_callback_helper(kHelperProbeWriteUser);
    case Feature::openat2: return probe_openat2();
  }
  return {false, "unknown feature"};
}

// RAWPROBE_PRETEND_MISSING=key[,key...] (keys as in FeatureInfo::key): these features are
// reported missing without asking the kernel, so the fallbacks that older kernels take (perf
// buffer, tracefs, semaphores in /proc/PID/mem, ...) can be run, and tested, on a new one.
// An unknown key is named on stderr once, with the known ones.
constexpr const char* kPretendVariable = "RAWPROBE_PRETEND_MISSING";

const std::vector<Feature>& pretended_list() {
  static const std::vector<Feature> missing = [] {
    std::vector<Feature> out;
    const char* value = std::getenv(kPretendVariable);
    std::string_view rest = value ? value : "";
    while (!rest.empty()) {
      size_t comma = rest.find(',');
      std::string_view key = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (key.empty()) continue;
      auto row = std::find_if(std::begin(kFeatures), std::end(kFeatures),
                              [&](const FeatureInfo& info) { return info.key == key; });
      if (row != std::end(kFeatures)) {
        out.push_back(row->feature);
        continue;
      }
      std::string known;
      for (const FeatureInfo& info : kFeatures) known += (known.empty() ? "" : ", ") + std::string(info.key);
      std::fprintf(stderr, "rawprobe: %s: unknown feature '%.*s' ignored; known: %s\n", kPretendVariable,
                   static_cast<int>(key.size()), key.data(), known.c_str());
    }
    return out;
  }();
  return missing;
}

}  // namespace

bool pretended_missing(Feature feature) {
  const std::vector<Feature>& missing = pretended_list();
  return std::find(missing.begin(), missing.end(), feature) != missing.end();
}

std::span<const FeatureInfo> all_features() { return kFeatures; }

const FeatureInfo& feature_info(Feature feature) {
  for (const FeatureInfo& info : kFeatures)
    if (info.feature == feature) return info;
  return kFeatures[0];  // unreachable: every enumerator has a row (checked by the unit test)
}

const FeatureState& feature_state(Feature feature) {
  static std::mutex lock;
  static std::array<std::optional<FeatureState>, kCount> cache;
  size_t index = static_cast<size_t>(feature);
  std::lock_guard<std::mutex> guard(lock);
  if (!cache[index]) {
    if (pretended_missing(feature))
      cache[index] = FeatureState{false, std::string(kPretendVariable) + " says so"};
    else
      cache[index] = run_probe(feature);
  }
  return *cache[index];
}

std::string info_report() {
  std::string out;
  struct utsname uts;
  if (::uname(&uts) == 0)
    out += std::string("kernel: ") + uts.sysname + " " + uts.release + " " + uts.machine + "\n";
  else
    out += "kernel: unknown (uname failed)\n";
  // Columns sized to their widest entry, so long details do not push "needs" out of line.
  size_t name_w = 7, detail_w = 6;
  for (const FeatureInfo& info : kFeatures) {
    name_w = std::max(name_w, info.name.size());
    detail_w = std::max(detail_w, feature_state(info.feature).detail.size());
  }
  auto row = [&](std::string_view name, std::string_view state, std::string_view detail,
                 std::string_view since) {
    std::string line(name);
    line.resize(name_w + 2, ' ');
    line += state;
    line.resize(name_w + 2 + 7, ' ');
    line += detail;
    line.resize(name_w + 2 + 7 + detail_w + 2, ' ');
    line += since;
    out += line + "\n";
  };
  row("feature", "state", "detail", "needs");
  for (const FeatureInfo& info : kFeatures) {
    const FeatureState& st = feature_state(info.feature);
    row(info.name, st.available ? "yes" : "no", st.detail, "Linux " + std::string(info.since));
  }
  return out;
}

}  // namespace rawprobe::sys
