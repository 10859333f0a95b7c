#include "engine/symbols/process_maps.h"

#include <cstdio>

#include "engine/base/hex.h"

namespace rawprobe::symbols {
namespace {

// Reads hex digits at `s[i]`, advancing i.
uint64_t hex_at(std::string_view s, size_t& i) {
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    int d = hex_digit(s[i]);
    if (d < 0) break;
    v = v << 4 | uint64_t(d);
  }
  return v;
}

void skip_spaces(std::string_view s, size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
}

}  // namespace

bool Mapping::file_gone() const {
  constexpr std::string_view deleted = " (deleted)";
  return path.rfind("/memfd:", 0) == 0 ||
         (path.size() > deleted.size() && path.compare(path.size() - deleted.size(), deleted.size(), deleted) == 0);
}

std::string Mapping::map_files_name() const {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%llx-%llx", static_cast<unsigned long long>(start),
                static_cast<unsigned long long>(end));
  return buf;
}

std::vector<Mapping> parse_maps(std::string_view text) {
  std::vector<Mapping> out;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    Mapping m;
    size_t i = 0;
    m.start = hex_at(line, i);
    if (i >= line.size() || line[i] != '-') continue;
    ++i;
    m.end = hex_at(line, i);
    skip_spaces(line, i);
    if (i + 4 > line.size()) continue;
    m.executable = line[i + 2] == 'x';
    i += 4;
    skip_spaces(line, i);
    m.offset = hex_at(line, i);
    skip_spaces(line, i);
    uint64_t major = hex_at(line, i);
    if (i < line.size() && line[i] == ':') ++i;
    uint64_t minor = hex_at(line, i);
    m.device = major << 32 | minor;
    skip_spaces(line, i);
    for (; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i) m.inode = m.inode * 10 + uint64_t(line[i] - '0');
    skip_spaces(line, i);
    m.path = std::string(line.substr(i));
    if (m.end > m.start) out.push_back(std::move(m));
  }
  return out;
}

}  // namespace rawprobe::symbols
