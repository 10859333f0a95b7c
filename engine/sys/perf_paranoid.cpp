#include "engine/sys/perf_paranoid.h"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "engine/sys/capabilities.h"
#include "engine/sys/perf.h"

namespace rawprobe::sys {

int perf_event_paranoid() {
  int fd = ::open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 2;
  char text[16] = {};
  ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  return n > 0 ? std::atoi(text) : 2;
}

bool perf_events_refused() {
  static const bool refused = [] {
    if (perf_event_paranoid() <= 2 || has_capability(Capability::sys_admin)) return false;
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_DUMMY;  // Linux 3.12; counts nothing
    attr.disabled = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    Result<Fd> fd = perf_event_open(attr, 0, -1, -1, "perf_event_paranoid check");
    return !fd && fd.error().err == EACCES;
  }();
  return refused;
}

}  // namespace rawprobe::sys
