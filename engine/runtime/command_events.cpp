#include "engine/runtime/command_events.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "engine/base/fd.h"

namespace rawprobe::runtime {

Result<std::string> cat_file(const std::string& path, size_t max) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return make_error("failed to open file '" + path + "': " + std::strerror(errno));
  std::string text(max, '\0');
  size_t have = 0;
  while (have < max) {
    ssize_t n = ::read(fd.get(), text.data() + have, max - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error("failed to read file '" + path + "': " + std::strerror(errno));
    if (n == 0) break;
    have += size_t(n);
  }
  text.resize(have);
  return text;
}

Result<std::string> system_output(const std::string& command) {
  FILE* p = ::popen(command.c_str(), "re");
  if (!p) return make_error("system(\"" + command + "\"): popen failed: " + std::strerror(errno));
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

}  // namespace rawprobe::runtime
