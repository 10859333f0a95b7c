// Expands a path with shell wildcards (`*`, `?`, `[...]` in any component, as in
// "/usr/lib/*/libc.so.6") to the existing paths it matches, sorted, the way glob(3) with no
// flags does. Our own instead of glob(3) because glibc's glob() also does ~user expansion,
// which links the NSS user lookup (getpwnam_r, and through it NSS module loading) into the
// static binary, which must make no NSS calls (it runs in bare containers and initramfs
// images with no NSS modules to load). A leading dot is matched only by a pattern that starts
// with one, as in glob(3); unreadable directories are skipped.
#pragma once
#include <string>
#include <vector>

namespace rawprobe::probes {

std::vector<std::string> expand_path_glob(const std::string& pattern);

}  // namespace rawprobe::probes
