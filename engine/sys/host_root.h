// Where kernel-provided files are read (DESIGN.md practice 11). Every /sys, /proc and tracefs
// path engine/sys opens is the root prefix plus the absolute path, so a unit test can point
// the layer at a fixture tree (a fake /sys/bus/event_source, a fake tracefs) instead of the
// running kernel. The default root is empty: the real filesystem.
#pragma once
#include <string>
#include <string_view>

namespace rawprobe::sys {

// Sets the prefix ("" for the real system, "/tmp/fixture" in tests).
void set_host_root(std::string root);
const std::string& host_root();
// host_root() + absolute path, e.g. host_path("/sys/bus/event_source/devices").
std::string host_path(std::string_view absolute);

// Reads a whole file as text; false when it cannot be opened or read.
bool read_text_file(const std::string& path, std::string& out);

}  // namespace rawprobe::sys
