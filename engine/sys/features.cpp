#include "engine/sys/features.h"

#include <algorithm>
#include <array>
#include <mutex>
#include <optional>
#include <sys/utsname.h>

#include "engine/sys/feature_probes.h"

namespace rawprobe::sys {

namespace {

constexpr FeatureInfo kFeatures[] = {
    {Feature::tracefs, "tracefs", "4.1"},
    {Feature::uprobe_pmu, "uprobe PMU", "4.17"},
    {Feature::kprobe_pmu, "kprobe PMU", "4.17"},
    {Feature::uprobe_ref_ctr, "uprobe ref_ctr_offset (USDT semaphores)", "4.20"},
    {Feature::ringbuf, "ring buffer map", "5.8"},
    {Feature::perf_link, "bpf_link for perf events", "5.15"},
    {Feature::uprobe_multi, "uprobe_multi link", "6.6"},
    {Feature::kprobe_multi, "kprobe_multi link", "5.18"},
    {Feature::probe_read_user, "bpf_probe_read_user", "5.5"},
    {Feature::probe_read_kernel, "bpf_probe_read_kernel", "5.5"},
    {Feature::bounded_loops, "bounded loops", "5.3"},
    {Feature::isa_v2, "ISA v2 (JLT/JLE/JSLT/JSLE)", "4.14"},
    {Feature::isa_v3, "ISA v3 (JMP32)", "5.1"},
    {Feature::isa_v4, "ISA v4 (sign extension, sdiv, bswap, gotol)", "6.6"},
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
  }
  return {false, "unknown feature"};
}

}  // namespace

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
  if (!cache[index]) cache[index] = run_probe(feature);
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
