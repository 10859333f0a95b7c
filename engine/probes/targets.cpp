#include "engine/probes/targets.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

#include "elf/library_path.h"
#include "engine/base/fd.h"
#include "engine/base/files.h"
#include "engine/probes/path_glob.h"
#include "engine/sys/host_root.h"
#include "engine/sys/rooted_open.h"

namespace rawprobe::probes {
namespace {

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

// The descriptors target files are held open by, one per file (device and inode), for the
// whole run, and what each is called.
struct HeldFile {
  Fd fd;
  std::string display;  // as asked for, for probe names and messages
  std::string name;     // the file's own path, for ELF messages and debug-file lookup
};
struct HeldFiles {
  std::mutex lock;
  std::map<std::pair<dev_t, ino_t>, std::string> by_inode;  // -> /proc/self/fd/N
  std::map<std::string, HeldFile> by_path;                   // /proc/self/fd/N ->
};

HeldFiles& held_files() {
  static HeldFiles files;
  return files;
}

// Holds `fd` (a target file) open for the rest of the run and returns the path that reaches
// it, /proc/self/fd/N; a file already held (same device and inode) keeps its first
// descriptor. `display` is the name it was asked for by, `name` its own path (what ELF
// messages say).
Result<std::string> hold_target(Fd fd, const std::string& display, const std::string& name) {
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return syscall_error("inspect binary", "fstat", errno, display);
  if (!S_ISREG(st.st_mode))
    return make_error("binary not found", display,
                      "it is not a regular file; give the path of an executable or library");
  HeldFiles& held = held_files();
  std::lock_guard<std::mutex> guard(held.lock);
  auto [it, fresh] = held.by_inode.try_emplace({st.st_dev, st.st_ino});
  if (fresh) {
    it->second = "/proc/self/fd/" + std::to_string(fd.get());
    held.by_path[it->second] = HeldFile{std::move(fd), display, name};
  }
  return it->second;
}

// Each held target costs a descriptor for the whole run, so a wildcard over a library
// directory (670 files in /usr/lib/x86_64-linux-gnu here) can pass a soft limit of 512 that
// rawprobe without held files stayed under. On EMFILE the soft limit is raised to the hard
// limit, once, and the open retried; the error stands when that does not help.
bool raise_nofile_limit() {
  static bool raised = false;
  rlimit limit;
  if (raised || ::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return false;
  limit.rlim_cur = limit.rlim_max;
  raised = ::setrlimit(RLIMIT_NOFILE, &limit) == 0;
  return raised;
}

std::string pid_root(pid_t pid) { return "/proc/" + std::to_string(pid) + "/root"; }

// `path` as the process names it, opened inside its root and held.
Result<std::string> hold_in_root(pid_t pid, const std::string& path) {
  Result<Fd> fd = sys::open_in_root(pid_root(pid), path);
  if (!fd && fd.error().err == EMFILE && raise_nofile_limit()) fd = sys::open_in_root(pid_root(pid), path);
  if (!fd) return fd.error();
  return hold_target(std::move(*fd), path, pid_root(pid) + path);
}

// `name`: what ELF messages call the file; by default its path with symlinks resolved.
Result<std::string> hold_host_file(const std::string& path, const std::string& display,
                                   std::optional<std::string> name = std::nullopt) {
  // A file held already (a second probe on the same binary) takes no second descriptor.
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    HeldFiles& held = held_files();
    std::lock_guard<std::mutex> guard(held.lock);
    if (auto it = held.by_inode.find({st.st_dev, st.st_ino}); it != held.by_inode.end()) return it->second;
  }
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd && errno == EMFILE && raise_nofile_limit()) fd = Fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    int err = errno;
    return syscall_error("open binary", "open", err, display,
                         err == ENOENT ? "check the path (relative paths start from the current directory)" : "");
  }
  if (!name) {
    char real[PATH_MAX];
    ssize_t n = ::readlink(("/proc/self/fd/" + std::to_string(fd.get())).c_str(), real, sizeof real - 1);
    name = n > 0 ? std::string(real, size_t(n)) : path;
  }
  return hold_target(std::move(fd), display, *name);
}

}  // namespace

std::string shown_path(const std::string& path) {
  HeldFiles& held = held_files();
  std::lock_guard<std::mutex> guard(held.lock);
  auto it = held.by_path.find(path);
  return it == held.by_path.end() ? path : it->second.display;
}

Error with_file_names(Error error) {
  HeldFiles& held = held_files();
  std::lock_guard<std::mutex> guard(held.lock);
  for (std::string* text : {&error.what, &error.object, &error.hint, &error.detail})
    for (const auto& [path, file] : held.by_path)
      for (size_t at; (at = text->find(path)) != std::string::npos;) text->replace(at, path.size(), file.name);
  return error;
}

void pause_before_attach_for_tests() {
  // Test hook only (tests/kernel/path_swap_test.cpp): RAWPROBE_TEST_PAUSE_BEFORE_ATTACH names
  // a FIFO. Opening it blocks until the test opens it for writing, which tells the test that
  // every target has been inspected; reading waits until the test closes it, after it has
  // renamed or replaced the binary. Once per run; no production path sets it.
  static std::once_flag once;
  std::call_once(once, [] {
    const char* fifo = std::getenv("RAWPROBE_TEST_PAUSE_BEFORE_ATTACH");
    if (!fifo || !*fifo) return;
    Fd fd(::open(fifo, O_RDONLY | O_CLOEXEC));
    char buf[64];
    while (fd && ::read(fd.get(), buf, sizeof buf) > 0) {
    }
  });
}

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
    // the inode. Any other name is the process's own (a container's): opened inside its root.
    std::string map_files = "/proc/" + std::to_string(pid) + "/map_files/" + m.range;
    Result<std::string> held =
        m.deleted ? hold_host_file(map_files, m.path, map_files)
                  : hold_in_root(pid, m.path);
    if (!held) continue;  // not readable (a device mapping, a file gone since): nothing to probe
    t.path = *held;
    out.push_back(t);
  }
  return out;
}

Result<std::vector<TargetFile>> resolve_targets(const std::string& target, pid_t pid) {
  std::vector<TargetFile> out;
  if (target == "*" && pid > 0) return mapped_objects(pid);
  if (target.find('/') != std::string::npos) {
    if (target.find_first_of("*?[") != std::string::npos) {
      for (const std::string& path : expand_path_glob(target)) {
        if (!is_regular_file(path)) continue;
        Result<std::string> held = hold_host_file(path, path);
        if (!held) return held.error();
        out.push_back({path, *held});
      }
      if (out.empty())
        return make_error("no file matches '" + target + "'", target,
                          "check the path; wildcards match files, e.g. /usr/lib/*/libc.so.6");
      return out;
    }
    if (pid > 0 && target[0] == '/') {
      // The path as the process sees it: in another mount namespace (a container) the same
      // name may be another file, or none, on the host, and its symlinks lead within its root.
      Result<std::string> inside = hold_in_root(pid, target);
      if (!inside) return inside.error();
      out.push_back({target, *inside});
      return out;
    }
    if (!is_regular_file(target))
      return make_error("binary not found", target,
                        ::access(target.c_str(), F_OK) == 0
                            ? "it is not a regular file; give the path of an executable or library"
                            : "check the path (relative paths start from the current directory)");
    Result<std::string> held = hold_host_file(target, target);
    if (!held) return held.error();
    out.push_back({target, *held});
    return out;
  }
  if (target.empty()) return make_error("missing binary", "", "write uprobe:BINARY:FUNCTION");
  elf::BinaryQuery query;
  query.name = target;
  if (pid > 0) query.pid = pid;
  Result<std::string> found = elf::find_binary(query);
  if (!found) return found.error();
  // With a pid, the library the process maps, named as it names it: opened inside its root.
  std::string root = pid_root(pid);
  Result<std::string> held = pid > 0 && found->rfind(root + "/", 0) == 0
                                 ? hold_in_root(pid, found->substr(root.size()))
                                 : hold_host_file(*found, *found, *found);
  if (!held) return held.error();
  out.push_back({*found, *held});
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
  // A held target is read through its descriptor, named by its own path.
  int fd = -1;
  std::string name = path;
  {
    HeldFiles& held = held_files();
    std::lock_guard<std::mutex> held_guard(held.lock);
    if (auto it = held.by_path.find(path); it != held.by_path.end()) {
      fd = it->second.fd.get();
      name = it->second.name;
    }
  }
  Result<elf::Binary> binary = fd >= 0 ? elf::Binary::open_fd(fd, name) : elf::Binary::open(path);
  if (!binary) return binary.error();
  auto shared = std::make_shared<elf::Binary>(std::move(*binary));
  cache[path] = shared;
  return shared;
}

}  // namespace rawprobe::probes
