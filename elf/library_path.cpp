// Finding binaries and libraries by the names users type.
#include "elf/library_path.h"

#include <dirent.h>
#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "elf/ld_cache.h"
#include "engine/base/files.h"

namespace rawprobe::elf {
namespace {

std::string basename_of(std::string_view path) {
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// "libc" matches libc.so.6 and libc-2.36.so; "libc.so" matches libc.so.6; exact names match
// themselves. "c" (as in -lc) matches libc.so.6 too.
bool library_name_matches(std::string_view want, std::string_view file) {
  if (file == want) return true;
  auto starts = [&](std::string_view prefix) {
    return file.size() >= prefix.size() && file.substr(0, prefix.size()) == prefix;
  };
  std::string w(want);
  if (starts(w + ".so") || starts(w + "-")) return true;
  if (want.substr(0, 3) != "lib") return starts("lib" + w + ".so") || starts("lib" + w + "-");
  return false;
}

// Reads e_machine and class without the full ElfFile validation (cheap, for filtering).
bool elf_arch_is(const std::string& path, const arch::Table& want) {
  std::ifstream in(path, std::ios::binary);
  unsigned char ident[20] = {};
  if (!in.read(reinterpret_cast<char*>(ident), sizeof ident)) return false;
  if (ident[0] != 0x7f || ident[1] != 'E' || ident[2] != 'L' || ident[3] != 'F') return false;
  uint16_t machine = ident[5] == ELFDATA2MSB ? (ident[18] << 8 | ident[19])
                                             : (ident[19] << 8 | ident[18]);
  return machine == want.e_machine && ident[4] == want.elf_class;
}

Result<std::string> from_process_maps(const BinaryQuery& q, const FsRoots& roots) {
  std::string pid = std::to_string(*q.pid);
  std::string maps_path = roots.proc + "/" + pid + "/maps";
  std::ifstream maps(maps_path);
  if (!maps)
    return syscall_error("find '" + q.name + "' in process " + pid, "open", errno, maps_path,
                         "is the process still running, and may we read its maps?");
  std::vector<std::string> seen;
  std::string found;
  for (std::string line; std::getline(maps, line);) {
    // address perms offset dev inode   pathname
    std::istringstream fields(line);
    std::string range, perms, offset, dev, inode, path;
    fields >> range >> perms >> offset >> dev >> inode;
    std::getline(fields >> std::ws, path);
    if (path.empty() || path[0] != '/') continue;
    if (path.size() > 10 && path.substr(path.size() - 10) == " (deleted)")
      path.resize(path.size() - 10);
    bool match = q.name.find('/') != std::string::npos
                     ? path == q.name
                     : library_name_matches(q.name, basename_of(path));
    if (match) {
      found = path;
      break;
    }
    if (std::find(seen.begin(), seen.end(), path) == seen.end()) seen.push_back(path);
  }
  if (found.empty()) {
    std::string list;
    for (const std::string& s : seen) list += (list.empty() ? "" : ", ") + basename_of(s);
    return make_error("find '" + q.name + "' in process " + pid, maps_path,
                      "the process has no such file mapped; it maps: " + list);
  }
  // The process's own view of its filesystem, whatever its mount namespace.
  return roots.proc + "/" + pid + "/root" + found;
}

Result<std::string> from_library_dirs(const BinaryQuery& q, const FsRoots& roots,
                                      const arch::Table& want) {
  std::string cache_path = roots.root + "/etc/ld.so.cache";
  std::vector<std::string> candidates;
  auto cache = read_ld_cache(cache_path);
  if (cache) {
    // Exact sonames first, then prefixes ("libc" -> libc.so.6), in cache order (ldconfig
    // sorts the newest version first).
    for (int pass = 0; pass < 2; ++pass)
      for (const LdCacheEntry& e : *cache)
        if (pass == 0 ? e.soname == q.name : library_name_matches(q.name, e.soname))
          candidates.push_back(roots.root + e.path);
  }
  std::string triplet(want.multiarch.empty() ? want.name : want.multiarch);
  for (std::string dir : {"/lib/" + triplet, "/usr/lib/" + triplet, std::string("/lib64"),
                          std::string("/usr/lib64"), std::string("/lib"), std::string("/usr/lib"),
                          std::string("/usr/local/lib")}) {
    dir = roots.root + dir;
    candidates.push_back(dir + "/" + q.name);
    if (DIR* d = opendir(dir.c_str())) {
      std::vector<std::string> names;
      while (dirent* ent = readdir(d))
        if (library_name_matches(q.name, ent->d_name)) names.push_back(ent->d_name);
      closedir(d);
      std::sort(names.begin(), names.end());
      for (const std::string& n : names) candidates.push_back(dir + "/" + n);
    }
  }
  for (const std::string& c : candidates)
    if (is_regular_file(c) && elf_arch_is(c, want)) return c;
  return make_error("find library '" + q.name + "'", std::string(want.name),
                    "not in " + cache_path + (cache ? "" : " (unreadable)") +
                        " nor in the standard library directories; give its full path, or -p "
                        "PID of a process that has it loaded");
}

Result<std::string> from_path_env(const BinaryQuery& q, const FsRoots& roots) {
  std::string path_env = q.path_env;
  if (path_env.empty()) {
    const char* env = getenv("PATH");
    path_env = env ? env : "/usr/local/bin:/usr/bin:/bin";
  }
  std::istringstream dirs(path_env);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    std::string candidate = roots.root + dir + "/" + q.name;
    if (is_regular_file(candidate) && access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return make_error("find program '" + q.name + "'", "$PATH=" + path_env,
                    "give the binary's full path (or a library name such as libc)");
}

}  // namespace

bool looks_like_library(std::string_view name) {
  return name.substr(0, 3) == "lib" || name.find(".so") != std::string_view::npos;
}

Result<std::string> find_binary(const BinaryQuery& q, const FsRoots& roots) {
  if (q.name.empty()) return make_error("find binary", "", "the probe names no binary");
  if (q.pid && q.name.find('/') != std::string::npos) {
    // A path as the process sees it, opened through its root.
    std::string path = roots.proc + "/" + std::to_string(*q.pid) + "/root" + q.name;
    if (!is_regular_file(path)) return make_error("find binary", path, "no such file in that process's filesystem");
    return path;
  }
  if (q.pid) return from_process_maps(q, roots);
  if (q.name.find('/') != std::string::npos) {
    if (!is_regular_file(q.name))
      return make_error("find binary", q.name, "no such file (or not a regular file)");
    return q.name;
  }
  const arch::Table& want = q.arch ? *q.arch : arch::host();
  if (looks_like_library(q.name)) return from_library_dirs(q, roots, want);
  return from_path_env(q, roots);
}

}  // namespace rawprobe::elf
