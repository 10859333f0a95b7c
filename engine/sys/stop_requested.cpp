#include "engine/sys/stop_requested.h"

#include <signal.h>

namespace rawprobe::sys {

bool stop_requested() {
  sigset_t pending;
  if (sigpending(&pending) != 0) return false;
  return sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1 ||
         sigismember(&pending, SIGHUP) == 1;
}

}  // namespace rawprobe::sys
