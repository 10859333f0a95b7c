// The records of a BPF ring buffer between its consumer and producer positions, read from the
// memory the kernel maps (engine/runtime/ring_buffer.cpp maps it; tests lay it out by hand).
//
// kernel/bpf/ringbuf.c declares both positions `unsigned long`: 8 bytes on a 64-bit kernel,
// 4 on a 32-bit one, where the next word of the producer page is `pending_pos` (6.10, and
// the stable kernels it was backported to). Read as a u64 there, the producer position took
// pending_pos as its high half, so the reader would run on through zeroed memory for ~2^32
// records. (Seen on armmp: exit() and interval hung; whether this was the cause is not yet
// checked in an arm guest.) A 32-bit rawprobe on a 64-bit kernel would need 8 here; the
// default assumes rawprobe runs on a kernel of its own width.
#pragma once
#include <cstddef>
#include <cstdint>

#include "engine/runtime/event_reader.h"

namespace rawprobe::runtime {

struct RingMemory {
  void* consumer_pos = nullptr;        // start of the read-write consumer page
  const void* producer_pos = nullptr;  // start of the read-only producer page
  const uint8_t* data = nullptr;       // the data area (mapped twice back to back)
  uint32_t size = 0;                   // data bytes, a power of two
  uint32_t position_bytes = sizeof(unsigned long);  // the kernel's unsigned long: 4 or 8
};

// Hands every committed record to `handler`, oldest first, giving the space back record by
// record; stops at an uncommitted (BUSY) one, or when the handler returns false. Returns how
// many records it handed.
size_t drain_ring_records(const RingMemory& ring, const RecordHandler& handler);

}  // namespace rawprobe::runtime
