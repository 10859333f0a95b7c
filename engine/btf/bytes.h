// The bytes of one BTF blob: a copy in memory, or the kernel's own pages mapped read-only.
// /sys/kernel/btf/vmlinux can be mapped from Linux 6.16 on; its 5 MiB then never count in
// rawprobe's memory (the mapping is of the kernel's pages, not a copy). Move-only.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace rawprobe::btf {

class Bytes {
 public:
  Bytes() = default;
  // Implicit: tests, fuzzers and module files hand in bytes they read.
  Bytes(std::string copy) : copy_(std::move(copy)) {}
  // Takes over a read-only mapping of `size` bytes at `at` (munmap'ed on destruction).
  static Bytes mapped(const void* at, size_t size);
  Bytes(Bytes&& other) noexcept;
  Bytes& operator=(Bytes&& other) noexcept;
  Bytes(const Bytes&) = delete;
  Bytes& operator=(const Bytes&) = delete;
  ~Bytes();

  std::string_view view() const { return map_ ? std::string_view(map_, size_) : std::string_view(copy_); }
  bool is_mapped() const { return map_ != nullptr; }

 private:
  void release();
  std::string copy_;
  const char* map_ = nullptr;
  size_t size_ = 0;
};

}  // namespace rawprobe::btf
