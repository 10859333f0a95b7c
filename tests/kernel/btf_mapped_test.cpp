// vmlinux's BTF mapped rather than copied, where the kernel allows it (Linux 6.16 on): the
// mapped bytes are the file's, and the mapping costs rawprobe no resident memory, because it
// maps the kernel's own pages. Where the kernel refuses the mapping, the bytes are read.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "engine/btf/kernel_files.h"

using namespace rawprobe;

namespace {

// The kernel's own answer to a read-only mapping of the file.
bool kernel_maps(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st;
  bool ok = fd >= 0 && ::fstat(fd, &st) == 0 && st.st_size > 0;
  void* at = ok ? ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
  if (at != MAP_FAILED) ::munmap(at, size_t(st.st_size));
  if (fd >= 0) ::close(fd);
  return at != MAP_FAILED;
}

// The "Rss:" of the mapping of `path` in /proc/self/smaps, in kB; -1 when none is listed.
long mapping_rss_kb(const std::string& path) {
  std::ifstream smaps("/proc/self/smaps");
  bool in = false;
  for (std::string line; std::getline(smaps, line);) {
    if (line.find(" " + path) != std::string::npos && line.size() > path.size() &&
        line.compare(line.size() - path.size(), path.size(), path) == 0)
      in = true;
    else if (in && line.rfind("Rss:", 0) == 0)
      return std::stol(line.substr(4));
  }
  return -1;
}

}  // namespace

TEST_CASE("vmlinux BTF is mapped where the kernel maps it, with the file's bytes and no resident cost") {
  const std::string path = btf::kernel_btf_dir() + "/vmlinux";
  if (access(path.c_str(), R_OK) != 0) {
    MESSAGE("no readable " << path << ": this kernel publishes no BTF");
    return;
  }
  Result<btf::Bytes> loaded = btf::load_btf_file(path);
  REQUIRE_MESSAGE(loaded.ok(), loaded.error().message());
  Result<std::string> read = btf::read_btf_file(path);
  REQUIRE(read.ok());
  CHECK(loaded->view() == std::string_view(*read));
  CHECK(loaded->is_mapped() == kernel_maps(path));
  if (loaded->is_mapped()) {
    // Every page touched, as indexing the types does.
    unsigned sum = 0;
    for (size_t i = 0; i < loaded->view().size(); i += 4096) sum += static_cast<unsigned char>(loaded->view()[i]);
    CHECK(sum > 0);
    CHECK(mapping_rss_kb(path) == 0);
  }
}
