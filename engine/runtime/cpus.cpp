#include "engine/runtime/cpus.h"

#include <algorithm>

#include "engine/base/cpu_list.h"
#include "engine/sys/host_root.h"

namespace rawprobe::runtime {

Result<uint32_t> possible_cpus() {
  static const Result<uint32_t> cached = []() -> Result<uint32_t> {
    std::string path = sys::host_path("/sys/devices/system/cpu/possible");
    std::string text;
    if (!sys::read_text_file(path, text))
      return sys::read_file_error("read the possible CPUs", path, "", errno, "rawprobe needs /sys mounted");
    Result<std::vector<int>> cpus = parse_cpu_list(text);
    if (!cpus) return cpus.error();
    if (cpus->empty()) return make_error("no possible CPUs listed", path);
    return uint32_t(*std::max_element(cpus->begin(), cpus->end()) + 1);
  }();
  return cached;
}

}  // namespace rawprobe::runtime
