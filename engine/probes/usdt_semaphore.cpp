#include "engine/probes/usdt_semaphore.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <sstream>

#include "elf/hex.h"
#include "engine/probes/targets.h"
#include "engine/sys/host_root.h"

namespace rawprobe::probes {
namespace {

Result<uint64_t> runtime_address(pid_t pid, const std::string& path, uint64_t file_offset) {
  std::string maps_path = sys::host_path("/proc/" + std::to_string(pid) + "/maps");
  std::string text;
  if (!sys::read_text_file(maps_path, text))
    return make_error("read the mappings of process " + std::to_string(pid), maps_path,
                      "check that the process exists");
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    uint64_t start, end, pgoff;
    char perms[8];
    int name_at = 0;
    if (std::sscanf(line.c_str(), "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &start,
                    &end, perms, &pgoff, &name_at) < 4 || name_at <= 0)
      continue;
    std::string mapped = line.substr(name_at);
    if (mapped.empty() || file_offset < pgoff || file_offset >= pgoff + (end - start)) continue;
    // The mapping's map_files link reaches the mapped inode from any mount namespace: a
    // process in a container names its files by paths the host may not have.
    std::string link = sys::host_path("/proc/" + std::to_string(pid) + "/map_files/" +
                                      line.substr(0, line.find(' ')));
    if (mapped != path && !same_file(mapped, path) && !same_file(link, path)) continue;
    return start + (file_offset - pgoff);
  }
  return make_error("process " + std::to_string(pid) + " does not map the semaphore at file offset " +
                        elf::hex(file_offset),
                    path,
                    "the process must have mapped that binary; a library a -c command loads "
                    "after exec is not there yet: start the command, then trace it with -p PID");
}

class HeldSemaphore final : public AttachmentSet::Part {
 public:
  HeldSemaphore(int fd, uint64_t address) : fd_(fd), address_(address) {}
  ~HeldSemaphore() override {
    if (held_) add(-1);
    ::close(fd_);
  }
  bool hold() { return held_ = add(1); }
  bool add(int delta) {
    uint16_t value = 0;
    if (::pread(fd_, &value, sizeof value, static_cast<off_t>(address_)) != sizeof value)
      return false;
    value = static_cast<uint16_t>(value + delta);
    return ::pwrite(fd_, &value, sizeof value, static_cast<off_t>(address_)) == sizeof value;
  }

 private:
  int fd_;
  uint64_t address_;
  bool held_ = false;
};

}  // namespace

bool maps_file_offset(pid_t pid, const std::string& path, uint64_t file_offset) {
  return runtime_address(pid, path, file_offset).ok();
}

Result<std::unique_ptr<AttachmentSet::Part>> hold_semaphore(pid_t pid, const std::string& path,
                                                            uint64_t file_offset) {
  Result<uint64_t> address = runtime_address(pid, path, file_offset);
  if (!address) return address.error();
  std::string mem = sys::host_path("/proc/" + std::to_string(pid) + "/mem");
  int fd = ::open(mem.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return syscall_error("open the memory of process " + std::to_string(pid), "open", errno, mem,
                         "writing a USDT semaphore into another process needs root (or ptrace "
                         "rights over it)");
  auto held = std::make_unique<HeldSemaphore>(fd, *address);
  if (!held->hold()) {
    int err = errno;
    return syscall_error("increment the USDT semaphore at " + elf::hex(*address), "pwrite", err,
                         mem);
  }
  return std::unique_ptr<AttachmentSet::Part>(std::move(held));
}

}  // namespace rawprobe::probes
