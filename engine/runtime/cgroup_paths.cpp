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

bool hierarchy_matches(std::string_view pattern, std::string_view name) {
  size_t star = pattern.find('*');
  if (star == std::string_view::npos) return pattern == name;
  // The text before the first * is a prefix, after the last * a suffix, and each piece
  // between stars is found in order, leftmost first.
  std::string_view head = pattern.substr(0, star);
  if (name.substr(0, head.size()) != head) return false;
  name.remove_prefix(head.size());
  pattern.remove_prefix(star + 1);
  for (size_t next; (next = pattern.find('*')) != std::string_view::npos; pattern.remove_prefix(next + 1)) {
    size_t at = name.find(pattern.substr(0, next));
    if (at == std::string_view::npos) return false;
    name.remove_prefix(at + next);
  }
  return name.size() >= pattern.size() && name.substr(name.size() - pattern.size()) == pattern;
}

std::string cgroup_path_text(uint64_t id, std::string_view filter) {
  static std::mutex lock;
  static std::map<std::pair<uint64_t, std::string>, std::string, std::less<>> cache;
  std::lock_guard<std::mutex> hold(lock);
  std::pair<uint64_t, std::string> key{id, std::string(filter)};
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::string text;
  for (const Hierarchy& h : hierarchies()) {
    if (!filter.empty() && !hierarchy_matches(filter, h.name)) continue;
    std::string path = path_in(h, id);
    if (path.empty()) continue;
    text += (text.empty() ? "" : ",") + h.name + ":" + path;
  }
  return cache[key] = text;
}

}  // namespace rawprobe::runtime
