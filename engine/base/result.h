// Errors as values (DESIGN.md practice 7). g++ 12 has no std::expected, so Result<T> is a
// small variant of a value or an Error. No exceptions cross module boundaries.
#pragma once
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace rawprobe {

// A stretch of the script an error is about: byte offsets [begin, end) into its text.
struct SourceRange {
  uint32_t begin = 0;
  uint32_t end = 0;
};

// What went wrong, with enough context to act on it. Lower layers build it; only the driver
// turns it into text (engine/driver/report.h), showing the script line `at` points into.
struct Error {
  std::string what;     // what was attempted: "load program", "parse USDT note"
  std::string object;   // the thing it was attempted on: probe, file, offset
  std::string syscall;  // e.g. "bpf(BPF_PROG_LOAD)"; empty when no syscall failed
  int err = 0;          // errno, 0 when not from a syscall
  std::string hint;     // what to do instead; may be empty
  std::string detail;   // long supporting text (a verifier log); may be empty
  std::optional<SourceRange> at;  // the part of the script it is about, when there is one

  // One line (plus detail and hint lines): "what 'object': syscall: EPERM (text)".
  std::string message() const;
};

// The kernel-internal ENOTSUPP (include/linux/errno.h), which some BPF and uprobe paths let
// reach user space; libc knows neither its name nor its text.
inline constexpr int kKernelEnotsupp = 524;

// Name of an errno value ("EPERM"), or "errno N" when unknown.
std::string errno_name(int err);

Error make_error(std::string what, std::string object = {}, std::string hint = {});
// Builds an Error from errno after a failed syscall.
Error syscall_error(std::string what, std::string syscall, int err, std::string object = {},
                    std::string hint = {});

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }
  Error& error() { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

// Result of an operation with no value.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), failed_(true) {}
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return error_; }
  Error& error() { return error_; }

 private:
  Error error_;
  bool failed_ = false;
};

using Status = Result<void>;

}  // namespace rawprobe
