// The perf buffer fallback for kernels without BPF ring buffers (before 5.8): one
// PERF_COUNT_SW_BPF_OUTPUT event per online CPU, its ring stored in a PERF_EVENT_ARRAY at the
// CPU's index; bpf_perf_event_output() writes into the ring of the CPU it runs on.
//
// Each ring is mmap()ed as 1 + 2^n pages: the first is struct perf_event_mmap_page
// (data_head written by the kernel, data_tail by us), the rest the data area. Records:
//   PERF_RECORD_SAMPLE  { perf_event_header; u32 size; u8 data[size]; }   (PERF_SAMPLE_RAW;
//                       size is padded so that 4 + size is a multiple of 8)
//   PERF_RECORD_LOST    { perf_event_header; u64 id; u64 lost; }           (ring was full)
// A record may wrap around the end of the data area; it is then copied out whole.
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "engine/probes/perf_sampling.h"
#include "engine/runtime/event_reader.h"
#include "engine/sys/bpf_map.h"
#include "engine/sys/perf.h"

namespace rawprobe::runtime {
namespace {

struct CpuRing {
  sys::Fd fd;
  void* base = nullptr;  // perf_event_mmap_page, then the data area
};

class PerfBufferReader final : public EventReader {
 public:
  PerfBufferReader(size_t page, size_t data_size) : page_(page), data_size_(data_size) {}
  ~PerfBufferReader() override {
    for (CpuRing& ring : rings_)
      if (ring.base) munmap(ring.base, page_ + data_size_);
  }

  Status add(int cpu, int map_fd) {
    perf_event_attr attr{};
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_BPF_OUTPUT;
    attr.sample_type = PERF_SAMPLE_RAW;
    attr.sample_period = 1;
    attr.wakeup_events = 1;  // wake the reader on every record, as bpftrace does
    attr.disabled = 1;
    Result<sys::Fd> fd = sys::perf_event_open(attr, -1, cpu, -1, "perf buffer of CPU " + std::to_string(cpu));
    if (!fd) return fd.error();
    void* base = mmap(nullptr, page_ + data_size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd->get(), 0);
    if (base == MAP_FAILED)
      return syscall_error("map the perf buffer", "mmap", errno, "CPU " + std::to_string(cpu),
                           "the locked-memory limit may be too low for " +
                               std::to_string(data_size_ / 1024) + " KiB per CPU");
    rings_.push_back(CpuRing{std::move(*fd), base});
    uint32_t key = uint32_t(cpu);
    uint32_t value = uint32_t(rings_.back().fd.get());
    if (Status s = sys::map_update(map_fd, &key, &value); !s) return s;
    return sys::perf_enable(rings_.back().fd.get());
  }

  std::vector<int> poll_fds() const override {
    std::vector<int> fds;
    for (const CpuRing& ring : rings_) fds.push_back(ring.fd.get());
    return fds;
  }

  size_t drain(const RecordHandler& handler) override {
    size_t handed = 0;
    for (CpuRing& ring : rings_) {
      auto* meta = static_cast<perf_event_mmap_page*>(ring.base);
      const uint8_t* data = static_cast<uint8_t*>(ring.base) + page_;
      uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
      uint64_t tail = meta->data_tail;
      bool keep = true;
      while (keep && tail < head) {
        const uint8_t* rec = contiguous(data, tail, sizeof(perf_event_header));
        perf_event_header header;
        std::memcpy(&header, rec, sizeof header);
        if (header.size < sizeof header) break;  // corrupt: never loop on it
        rec = contiguous(data, tail, header.size);
        if (header.type == PERF_RECORD_SAMPLE && header.size >= sizeof header + 4) {
          uint32_t size;
          std::memcpy(&size, rec + sizeof header, 4);
          size = std::min<uint32_t>(size, header.size - sizeof header - 4);
          ++handed;
          keep = handler(rec + sizeof header + 4, size);
        } else if (header.type == PERF_RECORD_LOST && header.size >= sizeof header + 16) {
          uint64_t lost;
          std::memcpy(&lost, rec + sizeof header + 8, 8);
          lost_ += lost;
        }
        tail += header.size;
      }
      __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
      if (!keep) break;
    }
    return handed;
  }

  uint64_t take_lost() override {
    uint64_t lost = lost_;
    lost_ = 0;
    return lost;
  }

 private:
  // `len` bytes at position `pos`, copied out when they wrap past the end of the ring.
  const uint8_t* contiguous(const uint8_t* data, uint64_t pos, size_t len) {
    size_t at = size_t(pos % data_size_);
    if (at + len <= data_size_) return data + at;
    wrapped_.resize(len);
    size_t first = data_size_ - at;
    std::memcpy(wrapped_.data(), data + at, first);
    std::memcpy(wrapped_.data() + first, data, len - first);
    return wrapped_.data();
  }

  size_t page_, data_size_;
  std::vector<CpuRing> rings_;
  std::vector<uint8_t> wrapped_;
  uint64_t lost_ = 0;
};

}  // namespace

Result<std::unique_ptr<EventReader>> open_perf_buffer(int map_fd, uint32_t pages) {
  if (pages == 0 || (pages & (pages - 1)))
    return make_error("open the perf buffer", std::to_string(pages) + " pages",
                      "the data area must be a power of two pages");
  Result<std::vector<int>> cpus = probes::online_cpus();
  if (!cpus) return cpus.error();
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  auto reader = std::make_unique<PerfBufferReader>(page, page * pages);
  for (int cpu : *cpus)
    if (Status s = reader->add(cpu, map_fd); !s) return s.error();
  return std::unique_ptr<EventReader>(std::move(reader));
}

}  // namespace rawprobe::runtime
