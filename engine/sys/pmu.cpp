#include "engine/sys/pmu.h"

#include <cerrno>
#include <charconv>
#include <deque>
#include <map>
#include <mutex>

#include "engine/sys/host_root.h"

namespace rawprobe::sys {

namespace {

struct PmuRegistry {
  std::mutex lock;
  std::deque<Pmu> pmus;  // deque: pointers handed out stay valid
};

PmuRegistry& registry() {
  static PmuRegistry r;
  return r;
}

const Pmu& remember(Pmu pmu) {
  PmuRegistry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  for (Pmu& known : r.pmus)
    if (known.name == pmu.name) return known = std::move(pmu);
  return r.pmus.emplace_back(std::move(pmu));
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

bool parse_int(std::string_view s, int& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

uint64_t ConfigBits::place(uint64_t value) const { return present() ? value << first : 0; }

bool ConfigBits::fits(uint64_t value) const {
  if (!present()) return value == 0;
  int width = last - first + 1;
  return width >= 64 || (value >> width) == 0;
}

uint64_t ConfigBits::extract(uint64_t config) const {
  if (!present()) return 0;
  int width = last - first + 1;
  uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
  return (config >> first) & mask;
}

Result<ConfigBits> parse_config_bits(std::string_view text) {
  std::string_view s = trim(text);
  constexpr std::string_view kPrefix = "config:";
  Error bad = make_error("parse PMU format", std::string(s),
                         "expected 'config:N' or 'config:N-M' with 0 <= N <= M <= 63");
  if (s.substr(0, kPrefix.size()) != kPrefix) return bad;
  s.remove_prefix(kPrefix.size());
  ConfigBits bits;
  size_t dash = s.find('-');
  if (!parse_int(s.substr(0, dash), bits.first)) return bad;
  bits.last = bits.first;
  if (dash != std::string_view::npos && !parse_int(s.substr(dash + 1), bits.last)) return bad;
  if (bits.first < 0 || bits.last < bits.first || bits.last > 63) return bad;
  return bits;
}

Result<Pmu> read_pmu(const std::string& name) {
  std::string dir = host_path("/sys/bus/event_source/devices/" + name);
  std::string text;
  if (!read_text_file(dir + "/type", text))
    return read_file_error("find PMU", dir + "/type", name, errno,
                           "this kernel has no '" + name + "' PMU (CONFIG_" +
                             (name == "uprobe" ? std::string("UPROBE_EVENTS") : "KPROBE_EVENTS") +
                             "); the tracefs " + name + "_events path may still work");
  Pmu pmu;
  pmu.name = name;
  int type = -1;
  if (!parse_int(trim(text), type) || type < 0)
    return make_error("parse PMU type", dir + "/type: '" + std::string(trim(text)) + "'",
                      "expected a non-negative decimal number");
  pmu.type = static_cast<uint32_t>(type);
  // Both format files are optional: retprobe exists since 4.17 (the PMUs' debut), and
  // ref_ctr_offset since 4.20 ("uprobes: Support SDT markers having reference count").
  for (auto [file, field] : {std::pair{"/format/retprobe", &pmu.retprobe},
                             std::pair{"/format/ref_ctr_offset", &pmu.ref_ctr_offset}}) {
    if (!read_text_file(dir + file, text)) continue;
    Result<ConfigBits> bits = parse_config_bits(text);
    if (!bits) {
      bits.error().object = dir + file + ": " + bits.error().object;
      return bits.error();
    }
    *field = *bits;
  }
  return remember(std::move(pmu));
}

Result<Pmu> cached_pmu(const std::string& name) {
  static std::mutex lock;
  static std::map<std::string, Result<Pmu>> cache;
  std::lock_guard<std::mutex> guard(lock);
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, read_pmu(name)).first;
  return it->second;
}

const Pmu* pmu_by_type(uint32_t type) {
  PmuRegistry& r = registry();
  std::lock_guard<std::mutex> guard(r.lock);
  for (const Pmu& pmu : r.pmus)
    if (pmu.type == type) return &pmu;
  return nullptr;
}

}  // namespace rawprobe::sys
