// What /proc says about processes, as the oracle of the task iterators' tests.
#pragma once
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <string>

namespace rawprobe::cli_test {

// The processes /proc lists whose namespaces root may inspect: a sandbox's policy can hide a
// process (this machine's pid 1 refuses even root the readlink of /proc/1/ns/pid), and the
// kernel's task iterator does not visit those either.
inline std::set<long> proc_pids() {
  std::set<long> pids;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    std::string n = e.path().filename();
    if (n.empty() || !std::all_of(n.begin(), n.end(), ::isdigit)) continue;
    char target[64];
    if (readlink(("/proc/" + n + "/ns/pid").c_str(), target, sizeof target) > 0) pids.insert(std::stol(n));
  }
  return pids;
}

}  // namespace rawprobe::cli_test
