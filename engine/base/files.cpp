#include "engine/base/files.h"

#include <sys/stat.h>

namespace rawprobe {

bool is_regular_file(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace rawprobe
