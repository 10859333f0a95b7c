// Turning what users type after `uprobe:` into a file: "/usr/bin/bash", "bash" (via $PATH),
// "libc" or "libc.so.6" (via ld.so.cache, then the standard directories), and with a pid
// the library that process has mapped, opened through /proc/PID/root so that processes in
// containers and other mount namespaces resolve to their own files.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "arch/arch.h"
#include "engine/base/result.h"

namespace rawprobe::elf {

// Test seam (DESIGN practice 11): where the filesystem root and /proc are. Production uses
// {"", "/proc"}; tests point them at fixture directories.
struct FsRoots {
  std::string root;            // prefix for /etc/ld.so.cache, /lib, $PATH dirs, /usr/lib/debug
  std::string proc = "/proc";
};

struct BinaryQuery {
  std::string name;               // as typed
  std::optional<int> pid;         // -p PID
  const arch::Table* arch = nullptr;  // libraries of this architecture (default: host)
  std::string path_env;           // $PATH to search; empty: getenv("PATH")
};

// The resolved path (readable by this process). Errors say where it looked.
Result<std::string> find_binary(const BinaryQuery& query, const FsRoots& roots = {});

// True for names users give for libraries rather than programs: "libc", "libfoo.so.1".
bool looks_like_library(std::string_view name);

}  // namespace rawprobe::elf
