// The runtime's event readers against the real kernel: a program on rawprobe's own BEGIN
// trigger (a uprobe, run in this thread on every probes::trigger_begin() call) submits
// numbered records through bpf_ringbuf_output or bpf_perf_event_output, and the readers must
// hand back every record, in order, with its bytes intact, across the ring's wrap-around;
// the perf buffer's PERF_RECORD_LOST counts must add up with what arrived to what was sent.
#include <doctest/doctest.h>

#include <linux/bpf.h>
#include <unistd.h>

#include <cstring>

#include "bpfasm/builder.h"
#include "engine/lang/probe_spec.h"
#include "engine/probes/begin_end.h"
#include "engine/probes/provider.h"
#include "engine/runtime/event_reader.h"
#include "engine/sys/bpf_map.h"
#include "engine/sys/bpf_prog.h"

using namespace rawprobe;

namespace {

constexpr int kRecordWords = 6;  // 48 bytes: ring records take 56, so they straddle the end
constexpr uint64_t kMix = 0x5a5a5a5a;

sys::Fd make_map(uint32_t type, uint32_t key, uint32_t value, uint32_t entries, const char* name) {
  Result<sys::Fd> fd = sys::map_create({type, key, value, entries, 0, name});
  REQUIRE_MESSAGE(fd, (fd ? "" : fd.error().message()));
  return std::move(*fd);
}

struct Emitter {
  sys::Fd seq, events, prog;
  std::unique_ptr<probes::Attachment> attached;
};

// On each BEGIN trigger: n = seq++; submit { n, n^kMix, n+1, n+2, n+3, n+4 }.
Emitter make_emitter(bool ringbuf, uint32_t ring_bytes) {
  Emitter e;
  e.seq = make_map(BPF_MAP_TYPE_ARRAY, 4, 8, 1, "rt_seq");
  e.events = ringbuf ? make_map(BPF_MAP_TYPE_RINGBUF, 0, 0, ring_bytes, "rt_events")
                     : make_map(BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, uint32_t(sysconf(_SC_NPROCESSORS_CONF)), "rt_events");
  lang::ProbeSpec spec;
  REQUIRE(lang::parse_probe_spec("BEGIN", {}, spec));
  Result<std::vector<probes::AttachPoint>> points = probes::expand(spec, {});
  REQUIRE_MESSAGE(points, (points ? "" : points.error().message()));
  probes::LoadPlan plan = probes::load_plan(*points, {});

  using namespace rawprobe::bpf;
  Builder b;
  Label out = b.new_label("out");
  b.mov(R6, R1);
  b.store_imm(Size::W, R10, -4, 0);
  b.load_map_fd(R1, MapHandle{0});
  b.mov(R2, R10);
  b.alu(Op::Add, R2, -4);
  b.call(Helper::map_lookup_elem);
  b.jump(Cond::Eq, R0, 0, out);
  b.mov(R1, 1);
  b.atomic(Atomic::FetchAdd, Size::DW, R0, 0, R1);  // r1 = old value
  const int16_t base = -8 * (kRecordWords + 1);
  b.store(Size::DW, R10, base, R1);
  b.mov(R2, R1);
  b.alu(Op::Xor, R2, int32_t(kMix));
  b.store(Size::DW, R10, base + 8, R2);
  for (int w = 2; w < kRecordWords; ++w) {
    b.mov(R2, R1);
    b.alu(Op::Add, R2, w - 1);
    b.store(Size::DW, R10, int16_t(base + 8 * w), R2);
  }
  if (ringbuf) {
    b.load_map_fd(R1, MapHandle{1});
    b.mov(R2, R10);
    b.alu(Op::Add, R2, base);
    b.mov(R3, 8 * kRecordWords);
    b.mov(R4, 0);
    b.call(Helper::ringbuf_output);
  } else {
    b.mov(R1, R6);
    b.load_map_fd(R2, MapHandle{1});
    b.ld_imm64(R3, 0xffffffffull);  // BPF_F_CURRENT_CPU
    b.mov(R4, R10);
    b.alu(Op::Add, R4, base);
    b.mov(R5, 8 * kRecordWords);
    b.call(Helper::perf_event_output);
  }
  b.bind(out);
  b.mov(R0, 0);
  b.exit();
  int fds[] = {e.seq.get(), e.events.get()};
  Result<Program> program = b.finish(fds);
  REQUIRE_MESSAGE(program, (program ? "" : program.error().message()));
  std::vector<Insn> slots = program->slots();
  sys::ProgSpec ps;
  ps.type = probes::kernel_prog_type(plan.type);
  ps.insns = slots;
  ps.name = "rt_emit";
  ps.expected_attach_type = plan.expected_attach_type;
  Result<sys::Fd> prog = sys::prog_load(ps);
  REQUIRE_MESSAGE(prog, (prog ? "" : prog.error().message() + "\n" + prog.error().detail));
  e.prog = std::move(*prog);
  int prog_fd = e.prog.get();
  Result<std::unique_ptr<probes::Attachment>> a = probes::attach(*points, {&prog_fd, 1}, {});
  REQUIRE_MESSAGE(a, (a ? "" : a.error().message()));
  e.attached = std::move(*a);
  return e;
}

// Checks each record's payload against its number and that numbers come in order.
struct Checker {
  uint64_t next = 0;
  size_t bad = 0;
  size_t short_records = 0;
  bool operator()(const uint8_t* data, size_t len) {
    if (len < 8 * kRecordWords) {
      ++short_records;
      return true;
    }
    uint64_t w[kRecordWords];
    std::memcpy(w, data, sizeof w);
    bool ok = w[0] == next && w[1] == (next ^ kMix);
    for (int k = 2; k < kRecordWords; ++k) ok = ok && w[k] == next + uint64_t(k - 1);
    if (!ok) ++bad;
    next = w[0] + 1;
    return true;
  }
};

}  // namespace

// These cases need what only the build host has (the dynamic build/rawprobe, the source
// tree's samples/*.bt, bpftrace or bpftool), so the VM guest leaves the suite "host-only"
// out (tests/vm/README.md).
TEST_SUITE_BEGIN("host-only");

TEST_CASE("ring buffer reader: every record, in order, intact across wrap-around") {
  const uint32_t ring = uint32_t(sysconf(_SC_PAGESIZE));  // smallest ring: wraps every ~73 records
  Emitter e = make_emitter(true, ring);
  Result<std::unique_ptr<runtime::EventReader>> reader = runtime::open_ring_buffer(e.events.get(), ring);
  REQUIRE_MESSAGE(reader, (reader ? "" : reader.error().message()));
  Checker check;
  size_t handed = 0;
  const int total = 1000;
  for (int i = 0; i < total; ++i) {
    probes::trigger_begin();
    if (i % 7 == 6) handed += (*reader)->drain(std::ref(check));
  }
  handed += (*reader)->drain(std::ref(check));
  CHECK(handed == size_t(total));
  CHECK(check.next == uint64_t(total));
  CHECK(check.bad == 0);
  CHECK(check.short_records == 0);
  CHECK((*reader)->take_lost() == 0);

  // A handler that says stop leaves the rest for the next drain.
  for (int i = 0; i < 3; ++i) probes::trigger_begin();
  size_t seen = 0;
  CHECK((*reader)->drain([&](const uint8_t* d, size_t n) { check(d, n); return ++seen < 1; }) == 1);
  CHECK((*reader)->drain(std::ref(check)) == 2);
  CHECK(check.bad == 0);
}

TEST_CASE("ring buffer reader refuses a size the kernel would not have made") {
  CHECK(!runtime::open_ring_buffer(-1, 12345).ok());
  CHECK(!runtime::open_ring_buffer(-1, 0).ok());
}

TEST_CASE("perf buffer reader: records arrive intact and the kernel's lost count adds up") {
  Emitter e = make_emitter(false, 0);
  Result<std::unique_ptr<runtime::EventReader>> reader = runtime::open_perf_buffer(e.events.get(), 1);
  REQUIRE_MESSAGE(reader, (reader ? "" : reader.error().message()));
  Checker check;
  // Small batches first: nothing may be lost.
  size_t handed = 0;
  for (int i = 0; i < 200; ++i) {
    probes::trigger_begin();
    if (i % 10 == 9) handed += (*reader)->drain(std::ref(check));
  }
  CHECK(handed == 200);
  CHECK(check.bad == 0);
  CHECK((*reader)->take_lost() == 0);

  // Then far more than one page holds: the kernel drops some and says how many (its LOST
  // record is written once there is room again, before the next sample).
  const int burst = 500;
  for (int i = 0; i < burst; ++i) probes::trigger_begin();
  size_t got = (*reader)->drain([&](const uint8_t*, size_t) { return true; });
  probes::trigger_begin();
  got += (*reader)->drain([&](const uint8_t*, size_t) { return true; });
  uint64_t lost = (*reader)->take_lost();
  CHECK(lost > 0);
  CHECK(got + lost == size_t(burst + 1));
  CHECK((*reader)->take_lost() == 0);
}

TEST_SUITE_END();
