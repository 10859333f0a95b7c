#include "engine/probes/usdt_semaphore.h"

#include <cinttypes>
#include <cstdio>
#include <sstream>
#include <utility>

#include "elf/hex.h"
#include "engine/probes/targets.h"
#include "engine/sys/host_root.h"
#include "engine/sys/proc_mem.h"

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
                    shown_path(path),
                    "the process must have mapped that binary; a library a -c command loads "
                    "after exec is not there yet: start the command, then trace it with -p PID");
}

// The increment is undone when the attachment goes. By then a -c command has usually exited:
// its memory is gone, the read finds no bytes, and there is nothing left to undo.
class HeldSemaphore final : public AttachmentSet::Part {
 public:
  HeldSemaphore(sys::ProcMem mem, uint64_t address) : mem_(std::move(mem)), address_(address) {}
  ~HeldSemaphore() override {
    if (held_) (void)mem_.add_u16(address_, -1, "decrement the USDT semaphore at " + elf::hex(address_));
  }
  Status hold() {
    Result<uint16_t> set = mem_.add_u16(address_, 1, "increment the USDT semaphore at " + elf::hex(address_));
    if (!set) return set.error();
    held_ = true;
    return {};
  }

 private:
  sys::ProcMem mem_;
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
  Result<sys::ProcMem> mem = sys::ProcMem::open(pid);
  if (!mem) return mem.error();
  auto held = std::make_unique<HeldSemaphore>(std::move(*mem), *address);
  if (Status s = held->hold(); !s) return s.error();
  return std::unique_ptr<AttachmentSet::Part>(std::move(held));
}

}  // namespace rawprobe::probes
