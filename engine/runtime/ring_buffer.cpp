// Reading a BPF ring buffer (kernel/bpf/ringbuf.c, 5.8) without libbpf.
//
// The map fd is mmap()ed twice:
//   offset 0          one page, read-write: consumer_pos (unsigned long), advanced by us
//   offset PAGE       read-only: one page holding producer_pos (unsigned long), then the data area
//                     mapped TWICE back to back, so a record that wraps past the end is
//                     still contiguous in our address space
// Each record starts with an 8-byte header:
//   +--------------------------------+--------------------------+
//   | u32 len | BUSY(31) | DISCARD(30)| u32 page offset (kernel) |
//   +--------------------------------+--------------------------+
// and takes round_up(len + 8, 8) bytes. BUSY: reserved but not yet committed (stop there);
// DISCARD: committed as dropped (skip it). Positions only grow; `pos & (size - 1)` indexes.
#include <linux/bpf.h>
#include <sys/mman.h>
#include <unistd.h>


#include "engine/runtime/event_reader.h"
#include "engine/runtime/ring_records.h"

namespace rawprobe::runtime {
namespace {

class RingBufferReader final : public EventReader {
 public:
  RingBufferReader(int map_fd, size_t page, uint32_t size, void* consumer, void* producer)
      : map_fd_(map_fd), page_(page), size_(size), consumer_(consumer), producer_(producer) {}
  ~RingBufferReader() override {
    munmap(consumer_, page_);
    munmap(producer_, page_ + 2 * size_t(size_));
  }

  std::vector<int> poll_fds() const override { return {map_fd_}; }

  size_t drain(const RecordHandler& handler) override {
    // A 32-bit rawprobe's unsigned long is the kernel's, except on a 64-bit kernel (compat),
    // where the low half of each little-endian position is what it reads, as libbpf does.
    RingMemory ring{consumer_, producer_, static_cast<uint8_t*>(producer_) + page_, size_};
    return drain_ring_records(ring, handler);
  }

  uint64_t take_lost() override { return 0; }

 private:
  int map_fd_;
  size_t page_;
  uint32_t size_;
  void* consumer_;
  void* producer_;
};

}  // namespace

namespace {

uint64_t load_position(const void* at, uint32_t bytes) {
  if (bytes == 4) return __atomic_load_n(static_cast<const uint32_t*>(at), __ATOMIC_ACQUIRE);
  return __atomic_load_n(static_cast<const uint64_t*>(at), __ATOMIC_ACQUIRE);
}

void store_position(void* at, uint32_t bytes, uint64_t value) {
  if (bytes == 4)
    __atomic_store_n(static_cast<uint32_t*>(at), static_cast<uint32_t>(value), __ATOMIC_RELEASE);
  else
    __atomic_store_n(static_cast<uint64_t*>(at), value, __ATOMIC_RELEASE);
}

}  // namespace

size_t drain_ring_records(const RingMemory& ring, const RecordHandler& handler) {
  size_t handed = 0;
  uint64_t cons = load_position(ring.consumer_pos, ring.position_bytes);
  for (;;) {
    uint64_t prod = load_position(ring.producer_pos, ring.position_bytes);
    if (cons >= prod) break;
    bool stop = false;
    while (cons < prod) {
      const uint8_t* header = ring.data + (cons & (ring.size - 1));
      uint32_t len = __atomic_load_n(reinterpret_cast<const uint32_t*>(header), __ATOMIC_ACQUIRE);
      if (len & BPF_RINGBUF_BUSY_BIT) {
        stop = true;  // the producer has not committed it yet; the next drain gets it
        break;
      }
      uint32_t payload = len & ~(BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT);
      bool keep = true;
      if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
        ++handed;
        keep = handler(header + BPF_RINGBUF_HDR_SZ, payload);
      }
      cons += (uint64_t(payload) + BPF_RINGBUF_HDR_SZ + 7) & ~uint64_t(7);
      // Give the space back record by record: a producer blocked on a full buffer can go on.
      store_position(ring.consumer_pos, ring.position_bytes, cons);
      if (!keep) return handed;
    }
    if (stop) break;
  }
  return handed;
}

Result<std::unique_ptr<EventReader>> open_ring_buffer(int map_fd, uint32_t data_bytes) {
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  if (data_bytes == 0 || (data_bytes & (data_bytes - 1)) || data_bytes % page)
    return make_error("map the ring buffer", std::to_string(data_bytes) + " bytes",
                      "a ring buffer's size must be a power of two and a multiple of the page size");
  void* consumer = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_SHARED, map_fd, 0);
  if (consumer == MAP_FAILED)
    return syscall_error("map the ring buffer's consumer page", "mmap", errno, "ring buffer");
  void* producer = mmap(nullptr, page + 2 * size_t(data_bytes), PROT_READ, MAP_SHARED, map_fd,
                        off_t(page));
  if (producer == MAP_FAILED) {
    int err = errno;
    munmap(consumer, page);
    return syscall_error("map the ring buffer's data pages", "mmap", err, "ring buffer");
  }
  return std::unique_ptr<EventReader>(
      new RingBufferReader(map_fd, page, data_bytes, consumer, producer));
}

}  // namespace rawprobe::runtime
