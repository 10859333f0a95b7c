#include "engine/runtime/passwd.h"

#include <charconv>
#include <fstream>

namespace rawprobe::runtime {

std::optional<std::string> user_name(uint32_t uid, const std::string& path) {
  std::ifstream in(path);
  // name:password:uid:gid:gecos:home:shell
  for (std::string line; std::getline(in, line);) {
    size_t name_end = line.find(':');
    if (name_end == std::string::npos || name_end == 0) continue;
    size_t uid_start = line.find(':', name_end + 1);
    if (uid_start == std::string::npos) continue;
    ++uid_start;
    size_t uid_end = line.find(':', uid_start);
    if (uid_end == std::string::npos) continue;
    uint32_t value = 0;
    auto [end, ec] = std::from_chars(line.data() + uid_start, line.data() + uid_end, value);
    if (ec != std::errc() || end != line.data() + uid_end) continue;
    if (value == uid) return line.substr(0, name_end);
  }
  return std::nullopt;
}

}  // namespace rawprobe::runtime
