#include "engine/probes/path_glob.h"

#include <dirent.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>

namespace rawprobe::probes {
namespace {

bool has_wildcard(const std::string& component) { return component.find_first_of("*?[") != std::string::npos; }

// The names in `dir` ("" is the current directory) that `component` matches.
std::vector<std::string> matching_names(const std::string& dir, const std::string& component) {
  std::vector<std::string> names;
  DIR* d = ::opendir(dir.empty() ? "." : dir.c_str());
  if (!d) return names;
  while (const dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (::fnmatch(component.c_str(), name.c_str(), FNM_PERIOD) == 0) names.push_back(name);
  }
  ::closedir(d);
  return names;
}

// A path that exists; with a trailing '/' ("lib/*/"), a directory.
bool exists(const std::string& path) {
  struct stat st;
  if (!path.empty() && path.back() == '/') return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  return ::lstat(path.c_str(), &st) == 0;
}

}  // namespace

std::vector<std::string> expand_path_glob(const std::string& pattern) {
  // Paths matched so far, each keeping the pattern's separators as written ("//usr//lib"
  // stays so), as glob(3) does.
  std::vector<std::string> paths = {""};
  size_t pos = 0;
  while (pos < pattern.size()) {
    size_t start = pattern.find_first_not_of('/', pos);
    std::string separators = pattern.substr(pos, (start == std::string::npos ? pattern.size() : start) - pos);
    for (std::string& p : paths) p += separators;
    if (start == std::string::npos) break;  // the pattern ends in '/'
    size_t end = std::min(pattern.find('/', start), pattern.size());
    std::string component = pattern.substr(start, end - start);
    pos = end;
    std::vector<std::string> next;
    for (const std::string& dir : paths) {
      if (!has_wildcard(component)) {
        next.push_back(dir + component);
        continue;
      }
      for (const std::string& name : matching_names(dir, component)) next.push_back(dir + name);
    }
    paths = std::move(next);
  }
  std::vector<std::string> out;
  for (std::string& p : paths)
    if (exists(p)) out.push_back(std::move(p));
  // Whole paths in byte order, as glob(3) sorts them in the C locale ("lib-2/x" < "lib/x").
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace rawprobe::probes
