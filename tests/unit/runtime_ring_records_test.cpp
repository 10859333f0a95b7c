// Draining a BPF ring buffer laid out as kernel/bpf/ringbuf.c lays it out: positions of the
// kernel's `unsigned long` (its size from the data model of each architecture), and on the
// producer page `pending_pos` right after `producer_pos`, as bpf_ringbuf_reserve leaves it
// (the end of the committed records before the newest reservation). On a 32-bit kernel
// (arm's 4-byte long) a reader of 8-byte positions took pending_pos for the producer's high
// half and never returned.
#include <doctest/doctest.h>
#include <linux/bpf.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/ctypes/data_model.h"
#include "engine/runtime/ring_records.h"

using namespace rawprobe;

namespace {

struct FakeRing {
  uint32_t long_bytes;
  std::vector<uint8_t> consumer_page = std::vector<uint8_t>(64, 0);
  std::vector<uint8_t> producer_page = std::vector<uint8_t>(64, 0);
  std::vector<uint8_t> data = std::vector<uint8_t>(4096, 0);
  uint64_t producer = 0, pending = 0;

  void put_long(std::vector<uint8_t>& page, size_t word, uint64_t v) {
    std::memcpy(page.data() + word * long_bytes, &v, long_bytes);  // little-endian host
  }
  // What bpf_ringbuf_reserve + submit do: pending_pos moves to the end of the records
  // committed before this reservation, producer_pos past the new one.
  void submit(const std::string& payload) {
    pending = producer;
    uint32_t len = uint32_t(payload.size());
    std::memcpy(data.data() + producer, &len, 4);
    std::memcpy(data.data() + producer + BPF_RINGBUF_HDR_SZ, payload.data(), payload.size());
    producer += (len + BPF_RINGBUF_HDR_SZ + 7) & ~uint64_t(7);
    put_long(producer_page, 0, producer);
    put_long(producer_page, 1, pending);
  }
  runtime::RingMemory memory() {
    return {consumer_page.data(), producer_page.data(), data.data(), uint32_t(data.size()), long_bytes};
  }
  uint64_t consumer() {
    uint64_t v = 0;
    std::memcpy(&v, consumer_page.data(), long_bytes);
    return v;
  }
};

}  // namespace

TEST_CASE("ring buffer records drain with the kernel's unsigned long positions on 32- and 64-bit kernels") {
  for (const char* arch : {"arm", "i386", "x86_64", "aarch64"}) {
    CAPTURE(arch);
    const ctypes::DataModel* model = ctypes::data_model(arch);
    REQUIRE(model != nullptr);
    FakeRing ring{model->long_type.size};
    const std::vector<std::string> sent = {"tick", "exit record", "third"};
    for (const std::string& s : sent) ring.submit(s);
    REQUIRE(ring.pending != 0);  // the word after producer_pos is not zero padding
    std::vector<std::string> got;
    size_t handed = runtime::drain_ring_records(ring.memory(), [&](const uint8_t* d, size_t n) {
      got.emplace_back(reinterpret_cast<const char*>(d), n);
      return got.size() <= sent.size();  // a reader running past the records stops here
    });
    CHECK(handed == sent.size());
    CHECK(got == sent);
    CHECK(ring.consumer() == ring.producer);
  }
}

TEST_CASE("a ring buffer reader of 8-byte positions misreads a 32-bit kernel's producer page") {
  // The reader before 32-bit kernels were considered: arm's layout read with 8-byte positions.
  FakeRing ring{ctypes::data_model("arm")->long_type.size};
  for (const char* s : {"a", "b"}) ring.submit(s);
  runtime::RingMemory wrong = ring.memory();
  wrong.position_bytes = 8;
  size_t calls = 0;
  runtime::drain_ring_records(wrong, [&](const uint8_t*, size_t) { return ++calls <= 2; });
  CHECK(calls > 2);  // it ran on past the two records into zeroed memory
}
