#include "engine/driver/report.h"

#include <cstdio>

namespace rawprobe::driver {

void report(const Error& error) { std::fprintf(stderr, "rawprobe: %s\n", error.message().c_str()); }

int exit_status(const Status& status) {
  if (status) return 0;
  report(status.error());
  return 1;
}

}  // namespace rawprobe::driver
