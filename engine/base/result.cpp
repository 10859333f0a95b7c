#include "engine/base/result.h"

namespace rawprobe {

std::string errno_name(int err) {
  if (err == kKernelEnotsupp) return "ENOTSUPP";
  // strerrorname_np is glibc 2.32+; Debian 12 has 2.36.
  if (const char* name = strerrorname_np(err)) return name;
  return "errno " + std::to_string(err);
}

namespace {
std::string errno_text(int err) {
  if (err == kKernelEnotsupp) return "Operation is not supported, kernel-internal errno 524";
  return std::strerror(err);
}
}  // namespace

std::string Error::message() const {
  std::string out = what;
  if (!object.empty()) out += " '" + object + "'";
  if (!syscall.empty()) out += ": " + syscall;
  if (err != 0) out += ": " + errno_name(err) + " (" + errno_text(err) + ")";
  if (!detail.empty()) out += "\n" + detail;
  if (!hint.empty()) out += "\nhint: " + hint;
  return out;
}

Error make_error(std::string what, std::string object, std::string hint) {
  Error e;
  e.what = std::move(what);
  e.object = std::move(object);
  e.hint = std::move(hint);
  return e;
}

namespace {
// Running out of descriptors can stop any call that makes one, so these hints hold for all.
std::string descriptor_hint(int err) {
  if (err == EMFILE) return "too many open files: raise the limit with ulimit -n";
  if (err == ENFILE) return "the system's open file table is full: raise fs.file-max";
  return "";
}
}  // namespace

Error syscall_error(std::string what, std::string syscall, int err, std::string object,
                    std::string hint) {
  if (hint.empty()) hint = descriptor_hint(err);
  Error e = make_error(std::move(what), std::move(object), std::move(hint));
  e.syscall = std::move(syscall);
  e.err = err;
  return e;
}

}  // namespace rawprobe
