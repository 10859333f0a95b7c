// Where the programs' async events (printf, exit, print, ... see codegen/compiled_script.h)
// come back: a BPF ring buffer (5.8) or, on older kernels, a perf buffer with one ring per
// CPU. Both sit behind this interface so the event loop does not care which one it drains.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/base/result.h"

namespace rawprobe::runtime {

// One record, exactly the bytes the program submitted. Returning false stops the drain
// early (the rest stays in the buffer for the next drain).
using RecordHandler = std::function<bool(const uint8_t* data, size_t len)>;

class EventReader {
 public:
  virtual ~EventReader() = default;
  // The fds that become readable (EPOLLIN) when records arrive.
  virtual std::vector<int> poll_fds() const = 0;
  // Hands every complete record to `handler`, oldest first; returns how many it handed.
  virtual size_t drain(const RecordHandler& handler) = 0;
  // Records the kernel says it dropped since the last call (a full perf ring's
  // PERF_RECORD_LOST); 0 for ring buffers. The programs count refused outputs themselves too
  // (EventDispatcher::take_lost reports the larger count).
  virtual uint64_t take_lost() = 0;
};

// A BPF_MAP_TYPE_RINGBUF map of `data_bytes` (its max_entries) mapped for reading.
Result<std::unique_ptr<EventReader>> open_ring_buffer(int map_fd, uint32_t data_bytes);

// A BPF_MAP_TYPE_PERF_EVENT_ARRAY map: opens one PERF_COUNT_SW_BPF_OUTPUT event per online
// CPU, maps `pages` data pages (a power of two) for each and stores them in the array at
// their CPU index, so bpf_perf_event_output(ctx, map, BPF_F_CURRENT_CPU, ...) finds them.
Result<std::unique_ptr<EventReader>> open_perf_buffer(int map_fd, uint32_t pages);

}  // namespace rawprobe::runtime
