// Where #include finds a file, as gcc does on Debian: "file" first beside the file that
// includes it; then the -I directories in order; then the system's (/usr/local/include,
// /usr/include/<multiarch triplet>, /usr/include). #include_next goes on after the directory
// the current file was found in.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "arch/arch.h"

namespace rawprobe::lang {

struct IncludeDirs {
  std::vector<std::string> user;    // -I DIR
  std::vector<std::string> system;  // default_system_include_dirs()
};

// The directories a Debian gcc searches for <...> on `table`'s architecture.
std::vector<std::string> default_system_include_dirs(const arch::Table& table);

struct FoundHeader {
  std::string path;  // as opened (and as errors name it)
  std::string text;
  // Index of the directory it was found in, in user then system order; -1 beside the includer.
  int dir = -1;
  bool in_system_dir = false;
};

// `name` as written between the quotes or brackets. `includer_dir` is the directory of the
// file holding the #include (for "..."); `after_dir` >= 0 searches only after that directory
// (#include_next). nullopt when no directory has it.
std::optional<FoundHeader> find_header(const IncludeDirs& dirs, const std::string& name, bool angled,
                                       const std::string& includer_dir, int after_dir = -2);

// A few constants from <sys/socket.h> that bpftrace 0.17's tools use (AF_INET, AF_INET6), for
// machines with no libc headers (a board, an initramfs): used only where no directory has the
// header. nullptr for any other header.
const char* builtin_header(std::string_view name);

// Macros of kernel-internal headers that bpftrace 0.17's tools use, which BTF cannot carry
// (BTF describes types, not #defines): read after such a <header> when the kernel's types come
// from BTF, each only if the script has not defined it. nullptr for any other header.
const char* kernel_macros_beyond_btf(std::string_view name);

// The directory part of a path ("." for a bare name).
std::string directory_of(const std::string& path);

}  // namespace rawprobe::lang
