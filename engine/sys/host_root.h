// Where kernel-provided files are read (DESIGN.md practice 11). Every /sys, /proc and tracefs
// path engine/sys opens is the root prefix plus the absolute path, so a unit test can point
// the layer at a fixture tree (a fake /sys/bus/event_source, a fake tracefs) instead of the
// running kernel. The default root is empty: the real filesystem.
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/base/result.h"

namespace rawprobe::sys {

// Sets the prefix ("" for the real system, "/tmp/fixture" in tests).
void set_host_root(std::string root);
const std::string& host_root();
// host_root() + absolute path, e.g. host_path("/sys/bus/event_source/devices").
std::string host_path(std::string_view absolute);

// What `compute()` returns, computed once per host root and kept: for facts of the running
// kernel that do not change while we run (where tracefs is, the kprobe blacklist, BTF names),
// read again only when a test points the root at another fixture. Pass a lambda: each lambda
// is its own type, so each call site has its own cache (two plain function pointers of one
// signature would share one). Safe from several threads.
template <class T, class Compute>
const T& once_per_host_root(Compute compute) {
  static std::mutex lock;
  static std::map<std::string, T> by_root;
  std::lock_guard<std::mutex> guard(lock);
  auto it = by_root.find(host_root());
  if (it == by_root.end()) it = by_root.emplace(host_root(), compute()).first;
  return it->second;
}

// Reads a whole file as text; false when it cannot be opened or read, with errno saying why.
bool read_text_file(const std::string& path, std::string& out);

// The error for a read_text_file that failed with err: a file that is not there gets
// missing_hint; any other failure (EMFILE, EACCES, ...) names its errno and that errno's hint.
Error read_file_error(std::string what, const std::string& path, std::string object, int err,
                      std::string missing_hint);

}  // namespace rawprobe::sys
