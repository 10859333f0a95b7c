#include "engine/sys/host_root.h"

#include <fstream>
#include <sstream>

namespace rawprobe::sys {

namespace {
std::string& root_storage() {
  static std::string root;
  return root;
}
}  // namespace

void set_host_root(std::string root) {
  while (!root.empty() && root.back() == '/') root.pop_back();
  root_storage() = std::move(root);
}

const std::string& host_root() { return root_storage(); }

std::string host_path(std::string_view absolute) {
  return root_storage() + std::string(absolute);
}

bool read_text_file(const std::string& path, std::string& out) {
  std::ifstream in(path);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  out = text.str();
  return !in.bad();
}

}  // namespace rawprobe::sys
