#include "engine/runtime/helper_errors.h"

#include <cstdio>
#include <cstring>

#include "engine/base/warnings.h"
#include "engine/runtime/dispatcher.h"

namespace rawprobe::runtime {

std::string helper_error_text(const codegen::HelperErrorSite& site, int32_t result) {
  std::string text = site.where + ": WARNING: Failed to " + site.helper + ": ";
  if (result < 0) text += std::string(std::strerror(-result)) + " (" + std::to_string(result) + ")";
  else text += std::to_string(result);
  return text + "\n" + site.context;
}

// Record: { u64 id; u64 site; s64 result }. bpftrace 0.17 writes these warnings to stdout;
// rawprobe keeps stdout for the script's output (-f json stays parseable) and writes them to
// stderr, as every other warning, after the output of the events before it.
void EventDispatcher::on_helper_error(const uint8_t* record, size_t len) {
  uint64_t fields[3] = {};
  std::memcpy(fields, record, std::min(len, sizeof fields));
  if (len < sizeof fields || fields[1] >= script_->helper_errors.size())
    return problem("a helper error record of unknown site " + std::to_string(fields[1]));
  if (!warnings_enabled()) return;
  if (Status s = out_->flush(); !s) return problem(s.error().message());
  std::string text = helper_error_text(script_->helper_errors[fields[1]], static_cast<int32_t>(fields[2]));
  std::fputs(text.c_str(), stderr);
}

}  // namespace rawprobe::runtime
