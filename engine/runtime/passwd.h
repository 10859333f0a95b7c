// User names for the `username` builtin, read from /etc/passwd by rawprobe itself. glibc's
// getpwuid() goes through NSS, which a static binary cannot carry (it loads the NSS modules
// of the glibc it was built with at run time, and pulls some 300 KB of NSS code into the
// binary): the local passwd file is what a board or a container has.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace rawprobe::runtime {

// The name of `uid` in the passwd-format file `path`, or nullopt when no line names it.
std::optional<std::string> user_name(uint32_t uid, const std::string& path = "/etc/passwd");

}  // namespace rawprobe::runtime
