// The run's main loop: waits (epoll) on the event buffers, the signals and the traced process,
// drains events into the dispatcher and flushes output after each batch (and prints every map
// on SIGUSR1), until one of the stop reasons below.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/output/output.h"
#include "engine/runtime/dispatcher.h"
#include "engine/runtime/event_reader.h"
#include "engine/runtime/stop_signals.h"
#include "engine/runtime/tracee.h"

namespace rawprobe::runtime {

enum class StopReason {
  Exit,          // a program called exit()
  Signal,        // SIGINT/SIGTERM/SIGHUP
  TraceeExited,  // the -c command or the -p process ended
};
const char* stop_reason_name(StopReason reason);

// Other work the loop serves between event batches (the metrics endpoint): the loop wakes when
// fd() is readable or timeout_ms() has passed, then calls serve(), which must never block.
class LoopService {
 public:
  virtual ~LoopService() = default;
  virtual int fd() const = 0;
  virtual void serve() = 0;
  virtual int timeout_ms() const = 0;  // -1: only fd() wakes it
};

struct LoopParts {
  EventReader* events = nullptr;  // may be null (a script without async events)
  EventDispatcher* dispatcher = nullptr;
  Output* out = nullptr;
  StopSignals* signals = nullptr;
  Tracee* tracee = nullptr;       // may be null
  LoopService* service = nullptr; // may be null
  // What SIGUSR1 does: with a self:signal:SIGUSR1 block, run it (bpftrace 0.22 on); without
  // one, nullptr, and the maps print as bpftrace 0.17 prints them.
  void (*on_sigusr1)() = nullptr;
};

// Runs until a stop reason; output write errors end it with an Error.
Result<StopReason> run_event_loop(const LoopParts& parts);

// Hands every pending record to the dispatcher, reports lost events and flushes output.
Status drain_events(const LoopParts& parts);

// Every pending record, copied out of the buffers and not yet handed to the dispatcher.
// BEGIN's records are taken so as soon as BEGIN has run: a perf buffer is one ring per CPU,
// read CPU by CPU, so an event written later on another CPU could otherwise be read before
// them. They are handled (handle_records) once every probe is attached, so what BEGIN prints
// or runs still comes after attachment, as in bpftrace.
using Records = std::vector<std::vector<uint8_t>>;
Records take_pending_records(const LoopParts& parts);
void handle_records(const LoopParts& parts, const Records& records);

}  // namespace rawprobe::runtime
