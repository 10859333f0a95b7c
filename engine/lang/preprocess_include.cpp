#include "engine/lang/preprocess_include.h"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace rawprobe::lang {
namespace {

std::optional<std::string> read_regular_file(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string join(const std::string& dir, const std::string& name) {
  if (dir.empty() || dir == ".") return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

}  // namespace

std::vector<std::string> default_system_include_dirs(const arch::Table& table) {
  std::vector<std::string> dirs = {"/usr/local/include"};
  if (!table.multiarch.empty()) dirs.push_back("/usr/include/" + std::string(table.multiarch));
  dirs.push_back("/usr/include");
  return dirs;
}

std::string directory_of(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::optional<FoundHeader> find_header(const IncludeDirs& dirs, const std::string& name, bool angled,
                                       const std::string& includer_dir, int after_dir) {
  if (!name.empty() && name[0] == '/') {
    if (std::optional<std::string> text = read_regular_file(name)) return FoundHeader{name, std::move(*text), -1, false};
    return std::nullopt;
  }
  if (!angled && after_dir == -2) {
    std::string path = join(includer_dir, name);
    if (std::optional<std::string> text = read_regular_file(path)) return FoundHeader{path, std::move(*text), -1, false};
  }
  int n = int(dirs.user.size() + dirs.system.size());
  for (int i = after_dir < 0 ? 0 : after_dir + 1; i < n; ++i) {
    bool system = size_t(i) >= dirs.user.size();
    const std::string& dir = system ? dirs.system[size_t(i) - dirs.user.size()] : dirs.user[size_t(i)];
    std::string path = join(dir, name);
    if (std::optional<std::string> text = read_regular_file(path)) return FoundHeader{path, std::move(*text), i, system};
  }
  return std::nullopt;
}

const char* builtin_header(std::string_view name) {
  // Linux's address families (include/linux/socket.h), the same on every architecture; glibc's
  // <bits/socket.h> has the same numbers. tests/unit/lang_preprocess_include_test.cpp checks
  // each against the system's <sys/socket.h>.
  if (name == "sys/socket.h")
    return "#define AF_UNSPEC 0\n"
           "#define AF_UNIX 1\n"
           "#define AF_INET 2\n"
           "#define AF_INET6 10\n";
  return nullptr;
}

const char* kernel_macros_beyond_btf(std::string_view name) {
  // include/linux/sched.h's task states (runqlat.bt compares prev_state with TASK_RUNNING); the
  // value has not changed since Linux 2.6. tests/unit/lang_preprocess_oracle_test.cpp checks it
  // against the kernel source that Debian's linux-source package ships.
  if (name == "linux/sched.h") return "#ifndef TASK_RUNNING\n#define TASK_RUNNING 0x00000000\n#endif\n";
  return nullptr;
}

}  // namespace rawprobe::lang
