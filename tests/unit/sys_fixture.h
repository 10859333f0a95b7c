// A throw-away directory tree for engine/sys unit tests: a fake /sys or tracefs under a
// temporary root (engine/sys/host_root.h), removed when the fixture goes out of scope.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/sys/host_root.h"

namespace rawprobe::sys::testing {

class TempTree {
 public:
  TempTree() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rawprobe-sys-XXXXXX").string();
    root_ = ::mkdtemp(pattern.data()) ? pattern : std::string();
  }
  ~TempTree() {
    set_host_root("");
    std::error_code ec;
    if (!root_.empty()) std::filesystem::remove_all(root_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::string& root() const { return root_; }
  std::string path(const std::string& absolute) const { return root_ + absolute; }
  // Creates `absolute` (under the root) with `content`, making parent directories.
  void write(const std::string& absolute, const std::string& content) const {
    std::filesystem::path p = path(absolute);
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << content;
  }
  // A probe PMU as the kernel publishes it (4.20+ layout: retprobe and ref_ctr_offset).
  void write_probe_pmu(const std::string& name, unsigned type) const {
    std::string dir = "/sys/bus/event_source/devices/" + name;
    write(dir + "/type", std::to_string(type) + "\n");
    write(dir + "/format/retprobe", "config:0\n");
    write(dir + "/format/ref_ctr_offset", "config:32-63\n");
  }
  void mkdir(const std::string& absolute) const { std::filesystem::create_directories(path(absolute)); }
  std::string read(const std::string& absolute) const {
    std::string out;
    read_text_file(path(absolute), out);
    return out;
  }
  // Points engine/sys at this tree until destruction.
  void activate() const { set_host_root(root_); }

 private:
  std::string root_;
};

}  // namespace rawprobe::sys::testing
