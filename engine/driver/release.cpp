#include "engine/driver/release.h"

#include <system_error>
#include <thread>

namespace rawprobe::driver {

void release_together(std::vector<std::unique_ptr<probes::Attachment>*> handles, bool one_by_one) {
  std::vector<std::thread> helpers;
  if (!one_by_one) {
    for (size_t i = 1; i < handles.size(); ++i) {
      try {
        helpers.emplace_back([handle = handles[i]] { handle->reset(); });
      } catch (const std::system_error&) {
        break;  // no more threads: the rest are released below, on this one
      }
    }
  }
  // This thread takes the first handle and whatever no helper took.
  for (size_t i = 0; i < handles.size(); ++i)
    if (i == 0 || i > helpers.size()) handles[i]->reset();
  for (std::thread& t : helpers) t.join();
}

}  // namespace rawprobe::driver
