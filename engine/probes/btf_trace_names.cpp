#include "engine/probes/btf_trace_names.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "engine/btf/format.h"
#include "engine/sys/host_root.h"

namespace rawprobe::probes {

std::vector<std::string> btf_trace_names_in(std::string_view blob) {
  std::vector<std::string> names;
  btf::Header h;
  if (blob.size() < sizeof h) return names;
  std::memcpy(&h, blob.data(), sizeof h);
  uint64_t begin = uint64_t{h.hdr_len} + h.str_off;
  if (h.magic != btf::kMagic || begin + h.str_len > blob.size()) return names;
  std::string_view strings = blob.substr(begin, h.str_len);
  constexpr std::string_view kPrefix = "btf_trace_";
  for (size_t at = 0; at < strings.size();) {
    size_t end = std::min(strings.find('\0', at), strings.size());
    std::string_view s = strings.substr(at, end - at);
    if (s.size() > kPrefix.size() && s.substr(0, kPrefix.size()) == kPrefix)
      names.emplace_back(s.substr(kPrefix.size()));
    at = end + 1;
  }
  return names;
}

std::vector<std::string> btf_trace_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(sys::host_path("/sys/kernel/btf"), ec)) {
    std::string blob;
    if (!sys::read_text_file(entry.path().string(), blob)) continue;
    for (std::string& n : btf_trace_names_in(blob)) names.push_back(std::move(n));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace rawprobe::probes
