#include "engine/btf/bytes.h"

#include <sys/mman.h>

#include <utility>

namespace rawprobe::btf {

Bytes Bytes::mapped(const void* at, size_t size) {
  Bytes b;
  b.map_ = static_cast<const char*>(at);
  b.size_ = size;
  return b;
}

Bytes::Bytes(Bytes&& other) noexcept
    : copy_(std::move(other.copy_)), map_(std::exchange(other.map_, nullptr)), size_(std::exchange(other.size_, 0)) {}

Bytes& Bytes::operator=(Bytes&& other) noexcept {
  if (this != &other) {
    release();
    copy_ = std::move(other.copy_);
    map_ = std::exchange(other.map_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

Bytes::~Bytes() { release(); }

void Bytes::release() {
  if (map_) ::munmap(const_cast<char*>(map_), size_);
  map_ = nullptr;
  size_ = 0;
}

}  // namespace rawprobe::btf
