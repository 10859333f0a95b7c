#include "engine/probes/targets.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>

#include "elf/library_path.h"
#include "engine/base/files.h"
#include "engine/probes/path_glob.h"
#include "engine/sys/host_root.h"

namespace rawprobe::probes {
namespace {

std::string absolute(const std::string& path) {
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) return path;
  std::string out(real);
  std::free(real);
  return out;
}

struct MapsLine {
  std::string range, path;
  bool deleted = false;
};

std::vector<MapsLine> read_maps(pid_t pid, bool& ok) {
  std::string text;
  ok = sys::read_text_file(sys::host_path("/proc/" + std::to_string(pid) + "/maps"), text);
  std::vector<MapsLine> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // start-end perms offset dev inode   pathname
    std::istringstream fields(line);
    MapsLine m;
    std::string perms, offset, dev, inode;
    if (!(fields >> m.range >> perms >> offset >> dev >> inode)) continue;
    std::getline(fields >> std::ws, m.path);
    if (m.path.empty() || m.path[0] == '[' || inode == "0") continue;
    const std::string suffix = " (deleted)";
    if (m.path.size() > suffix.size() &&
        m.path.compare(m.path.size() - suffix.size(), suffix.size(), suffix) == 0) {
      m.deleted = true;
      m.path.resize(m.path.size() - suffix.size());
    }
    if (m.path.rfind("/memfd:", 0) == 0) m.deleted = true;
    lines.push_back(m);
  }
  return lines;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

Result<std::vector<TargetFile>> mapped_objects(pid_t pid) {
  bool ok = false;
  std::vector<MapsLine> maps = read_maps(pid, ok);
  if (!ok)
    return make_error("read the mappings of process " + std::to_string(pid),
                      "/proc/" + std::to_string(pid) + "/maps",
                      "check that the process exists and that you are root");
  std::vector<TargetFile> out;
  std::map<std::string, bool> seen;
  for (const MapsLine& m : maps) {
    if (seen[m.path]) continue;
    seen[m.path] = true;
    TargetFile t;
    t.display = m.path;
    // A deleted file or memfd has no name to open; its mapping's magic link still reaches
    // the inode, for ELF reading and for the kernel's uprobe path lookup alike.
    t.path = m.deleted ? "/proc/" + std::to_string(pid) + "/map_files/" + m.range : m.path;
    // A process in another mount namespace (a container) names files of its own view: read
    // them through /proc/PID/root unless the name reaches the same file here.
    if (!m.deleted && !m.path.empty() && m.path[0] == '/') {
      std::string inside = "/proc/" + std::to_string(pid) + "/root" + m.path;
      if (!same_file(m.path, inside)) t.path = inside;
    }
    out.push_back(t);
  }
  return out;
}

Result<std::vector<TargetFile>> resolve_targets(const std::string& target, pid_t pid) {
  std::vector<TargetFile> out;
  if (target == "*" && pid > 0) return mapped_objects(pid);
  if (target.find('/') != std::string::npos) {
    if (target.find_first_of("*?[") != std::string::npos) {
      for (const std::string& path : expand_path_glob(target))
        if (is_regular_file(path)) out.push_back({path, absolute(path)});
      if (out.empty())
        return make_error("no file matches '" + target + "'", target,
                          "check the path; wildcards match files, e.g. /usr/lib/*/libc.so.6");
      return out;
    }
    if (pid > 0 && target[0] == '/') {
      // The path as the process sees it: in another mount namespace (a container) the same
      // name may be another file, or none, on the host. /proc/PID/root reaches its view, for
      // ELF reading and for the kernel's uprobe path lookup alike; when both name one file,
      // the plain path is kept, so traces and messages show what the user wrote.
      Result<std::string> inside = elf::find_binary({target, pid, nullptr, {}});
      if (!inside) return inside.error();
      out.push_back({target, same_file(target, *inside) ? absolute(target) : *inside});
      return out;
    }
    if (!is_regular_file(target))
      return make_error("binary not found", target,
                        ::access(target.c_str(), F_OK) == 0
                            ? "it is not a regular file; give the path of an executable or library"
                            : "check the path (relative paths start from the current directory)");
    out.push_back({target, absolute(target)});
    return out;
  }
  if (target.empty()) return make_error("missing binary", "", "write uprobe:BINARY:FUNCTION");
  elf::BinaryQuery query;
  query.name = target;
  if (pid > 0) query.pid = pid;
  Result<std::string> found = elf::find_binary(query);
  if (!found) return found.error();
  out.push_back({*found, *found});
  return out;
}

Result<std::vector<OpenedTarget>> open_targets(const std::string& target, pid_t pid,
                                               bool skip_unreadable) {
  Result<std::vector<TargetFile>> files = resolve_targets(target, pid);
  if (!files) return files.error();
  std::vector<OpenedTarget> opened;
  for (TargetFile& file : *files) {
    Result<std::shared_ptr<elf::Binary>> bin = open_binary(file.path);
    if (!bin) {
      if (skip_unreadable && files->size() > 1) continue;
      return bin.error();
    }
    opened.push_back({std::move(file), std::move(*bin)});
  }
  return opened;
}

Result<std::shared_ptr<elf::Binary>> open_binary(const std::string& path) {
  static std::mutex lock;
  static std::map<std::string, std::shared_ptr<elf::Binary>> cache;
  std::lock_guard<std::mutex> guard(lock);
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  Result<elf::Binary> binary = elf::Binary::open(path);
  if (!binary) return binary.error();
  auto shared = std::make_shared<elf::Binary>(std::move(*binary));
  cache[path] = shared;
  return shared;
}

}  // namespace rawprobe::probes
