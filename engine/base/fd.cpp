#include "engine/base/fd.h"

#include <unistd.h>

namespace rawprobe {

void Fd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

}  // namespace rawprobe
