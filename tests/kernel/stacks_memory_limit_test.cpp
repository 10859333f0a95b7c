// A stack map where the kernel cannot allocate bpftrace's 128K stacks (a 32-bit kernel's
// small vmalloc area, a memory-limited cgroup): rawprobe halves it until BPF_MAP_CREATE
// succeeds. The limit here is a memory cgroup of 100 MB around rawprobe (room for its own
// ~25 MB and a halved map), which the whole map's ~130 MB exceeds (BPF maps are charged to
// the cgroup since 5.11); the kernel's answers are read from rawprobe's --trace-syscalls lines.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// A memory cgroup of its own with a limit, in the v1 memory hierarchy when this machine has
// one, else in cgroup2 (where the guests mount it).
struct MemoryCgroup {
  std::string dir, limit_file;
  explicit MemoryCgroup(uint64_t bytes) {
    std::string name = "rawprobe-stackmap-" + std::to_string(getpid());
    if (std::filesystem::exists("/sys/fs/cgroup/memory/memory.limit_in_bytes")) {
      dir = "/sys/fs/cgroup/memory/" + name;
      limit_file = "memory.limit_in_bytes";
    } else if (std::filesystem::exists("/sys/fs/cgroup/cgroup.subtree_control")) {
      std::ofstream("/sys/fs/cgroup/cgroup.subtree_control") << "+memory";
      dir = "/sys/fs/cgroup/" + name;
      limit_file = "memory.max";
    }
    if (dir.empty() || mkdir(dir.c_str(), 0755) != 0) {
      dir.clear();
      return;
    }
    std::ofstream(dir + "/" + limit_file) << bytes;
  }
  ~MemoryCgroup() {
    if (!dir.empty()) rmdir(dir.c_str());
  }
};

}  // namespace

TEST_CASE("a stack map the kernel cannot allocate whole is halved until it can") {
  MemoryCgroup cg(100u << 20);
  REQUIRE_MESSAGE(!cg.dir.empty(), "no memory cgroup could be made (v1 /sys/fs/cgroup/memory or cgroup2 +memory)");
  std::string command = "echo $$ > " + cg.dir + "/cgroup.procs && exec " + rawprobe_path() +
                        " --trace-syscalls -e 'interval:ms:100 { @[kstack] = count(); exit(); }'";
  RunResult r = run({"/bin/sh", "-c", command}, 60);
  INFO(r.out, r.err);
  // Every creation of the stack map, in order: its max_entries and the kernel's answer.
  std::regex create("map_type=BPF_MAP_TYPE_STACK_TRACE, .*max_entries=([0-9]+), .*map_name=\"\\.stack\".*\\) = (-1 ([A-Z]+)|[0-9]+)");
  std::vector<std::pair<uint64_t, std::string>> tries;
  std::string text = r.err + r.out;
  for (std::sregex_iterator it(text.begin(), text.end(), create), end; it != end; ++it)
    tries.push_back({std::stoull((*it)[1]), (*it)[3]});
  REQUIRE(tries.size() >= 2);  // the cgroup refused the first size: the fallback was needed
  for (size_t i = 0; i + 1 < tries.size(); ++i) {
    CHECK(tries[i].second == "ENOMEM");
    CHECK(tries[i + 1].first == tries[i].first / 2);
  }
  CHECK(tries.back().second.empty());  // the last one got an fd
  CHECK(r.status == 0);
  CHECK(r.out.find("]: 1") != std::string::npos);  // the one kstack counted and printed
}
