// An owned file descriptor: move-only, closed by the destructor. Every fd rawprobe opens is
// held in one: engine/sys's kernel objects (maps, programs, links, perf events, created
// O_CLOEXEC so a forked child, the traced command, never inherits them), elf/'s files and
// the pipes of helper processes. engine/sys/fd.h names it sys::Fd.
#pragma once

namespace rawprobe {

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  explicit operator bool() const { return valid(); }
  // Gives up ownership without closing.
  int release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  // Closes the held fd (if any) and takes `fd`.
  void reset(int fd = -1);

 private:
  int fd_ = -1;
};

}  // namespace rawprobe
