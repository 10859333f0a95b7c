#include "engine/sys/fd.h"

#include <unistd.h>

namespace rawprobe::sys {

void Fd::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

}  // namespace rawprobe::sys
