#include "engine/sys/host_root.h"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace rawprobe::sys {

namespace {
std::string& root_storage() {
  static std::string root;
  return root;
}
}  // namespace

void set_host_root(std::string root) {
  while (!root.empty() && root.back() == '/') root.pop_back();
  root_storage() = std::move(root);
}

const std::string& host_root() { return root_storage(); }

std::string host_path(std::string_view absolute) {
  return root_storage() + std::string(absolute);
}

bool read_text_file(const std::string& path, std::string& out) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  out.clear();
  char buffer[8192];
  ssize_t n;
  while ((n = read(fd, buffer, sizeof buffer)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      close(fd);
      errno = err;
      return false;
    }
    out.append(buffer, size_t(n));
  }
  close(fd);
  return true;
}

Error read_file_error(std::string what, const std::string& path, std::string object, int err,
                      std::string missing_hint) {
  return syscall_error(std::move(what), "open(" + path + ")", err, std::move(object),
                       err == ENOENT ? std::move(missing_hint) : std::string());
}

}  // namespace rawprobe::sys
