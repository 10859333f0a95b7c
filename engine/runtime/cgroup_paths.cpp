#include "engine/runtime/cgroup_paths.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

namespace rawprobe::runtime {
namespace {

struct Hierarchy {
  std::string name;   // "unified", "cpu", "systemd", ...
  std::string mount;  // "/sys/fs/cgroup/cpu"
};

// The cgroup mounts of /proc/self/mountinfo: "... MOUNT_POINT OPTIONS ... - FSTYPE SOURCE ...".
std::vector<Hierarchy> hierarchies() {
  std::vector<Hierarchy> v2, v1;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string id, parent, dev, root, mount, word;
    fields >> id >> parent >> dev >> root >> mount;
    while (fields >> word && word != "-") {
    }
    std::string fstype;
    fields >> fstype;
    if (fstype == "cgroup2") v2.push_back({"unified", mount});
    else if (fstype == "cgroup") v1.push_back({std::filesystem::path(mount).filename().string(), mount});
  }
  std::sort(v1.begin(), v1.end(), [](const Hierarchy& a, const Hierarchy& b) { return a.name < b.name; });
  v2.insert(v2.end(), v1.begin(), v1.end());
  return v2;
}

// "/" for the hierarchy's root, "/a/b" for an entry below it, "" when no entry has that inode.
std::string path_in(const Hierarchy& h, uint64_t id) {
  struct stat st;
  if (::stat(h.mount.c_str(), &st) == 0 && st.st_ino == id) return "/";
  std::error_code ec;
  namespace fs = std::filesystem;
  for (fs::recursive_directory_iterator it(h.mount, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (::lstat(it->path().c_str(), &st) == 0 && st.st_ino == id)
      return "/" + fs::relative(it->path(), h.mount, ec).string();
  }
  return "";
}

}  // namespace

std::string cgroup_path_text(uint64_t id) {
  static std::mutex lock;
  static std::map<uint64_t, std::string> cache;
  std::lock_guard<std::mutex> hold(lock);
  if (auto it = cache.find(id); it != cache.end()) return it->second;
  std::string text;
  for (const Hierarchy& h : hierarchies()) {
    std::string path = path_in(h, id);
    if (path.empty()) continue;
    text += (text.empty() ? "" : ",") + h.name + ":" + path;
  }
  return cache[id] = text;
}

}  // namespace rawprobe::runtime
