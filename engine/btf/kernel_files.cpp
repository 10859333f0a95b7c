#include "engine/btf/kernel_files.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "engine/sys/host_root.h"

namespace rawprobe::btf {

std::string kernel_btf_dir() { return sys::host_path("/sys/kernel/btf"); }

Result<std::string> read_btf_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return syscall_error("read kernel BTF", "open", errno, path,
                         errno == ENOENT ? "the kernel publishes BTF from Linux 5.4 when built "
                                           "with CONFIG_DEBUG_INFO_BTF=y"
                                         : "");
  // Read straight into a buffer of the size fstat reports (5 MiB for vmlinux), growing it only
  // if the file turns out longer.
  std::string bytes;
  struct stat st;
  size_t size = ::fstat(fd, &st) == 0 && st.st_size > 0 ? static_cast<size_t>(st.st_size) : 0;
  bytes.resize(size + 1);
  size_t have = 0;
  for (;;) {
    if (have == bytes.size()) bytes.resize(bytes.size() * 2 + 4096);
    ssize_t n = ::read(fd, bytes.data() + have, bytes.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return syscall_error("read kernel BTF", "read", err, path);
    }
    if (n == 0) break;
    have += static_cast<size_t>(n);
  }
  bytes.resize(have);
  ::close(fd);
  return bytes;
}

Result<Bytes> load_btf_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    struct stat st;
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* at = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (at != MAP_FAILED) {
        ::close(fd);
        return Bytes::mapped(at, static_cast<size_t>(st.st_size));
      }
    }
    ::close(fd);
  }
  // Kernels before 6.16 refuse to map these files: read them (read_btf_file reports the error).
  Result<std::string> read = read_btf_file(path);
  if (!read) return read.error();
  return Bytes(std::move(*read));
}

std::vector<std::string> module_btf_names(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name != "vmlinux") names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace rawprobe::btf
