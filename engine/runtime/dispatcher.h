// Acts on the programs' async events (the protocol in codegen/compiled_script.h): printf
// text, exit(), print/clear/zero of a map, time(), print(value). One dispatcher per run.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/codegen/compiled_script.h"
#include "engine/lang/program_info.h"
#include "engine/output/output.h"
#include "engine/runtime/point_text.h"
#include "engine/runtime/script_maps.h"

namespace rawprobe::runtime {

class EventDispatcher {
 public:
  // Binds every printf format to its argument types once (errors name the printf).
  static Result<EventDispatcher> make(const lang::ProgramInfo& info,
                                      const codegen::CompiledScript& script,
                                      const ScriptMaps& maps, Output& out);

  // Handles one record. After exit() (and until resume()) further events are ignored, as
  // bpftrace ignores events that were already queued behind its exit.
  void handle(const uint8_t* record, size_t len);
  bool exit_requested() const { return exit_; }
  // exit(code)'s code (bpftrace 0.21 on): rawprobe's exit status; 0 after exit() or none.
  int exit_code() const { return exit_code_; }
  // END runs after exit(): its events must be handled again.
  void resume() { ignoring_ = false; }
  // --test runs each test block on its own: an exit() in one ends that test, not the next.
  void clear_exit() { exit_ = ignoring_ = false; exit_code_ = 0; }
  // Events lost since the last call. Two counts of the same losses: the programs' own count of
  // refused outputs (`.lost`) and the perf buffer's PERF_RECORD_LOST total, to which
  // `reader_lost` adds. The larger one is reported: the records come late (with the next
  // record that fits), and kernels before 5.4 do not tell the program.
  uint64_t take_lost(uint64_t reader_lost);
  // A problem met while handling (an unknown event id, a failed map read), reported once.
  const std::vector<std::string>& problems() const { return problems_; }

  // watchpoint:FUNC+argN: FUNC was entered with argN = address; the driver, which holds the
  // attachments and the process, arms the watchpoint and lets the process go on.
  std::function<void(uint32_t watch_id, uint64_t address, bool stopped)> on_watch;
  // unwatch(address): the driver closes the watchpoints on that address.
  std::function<void(uint64_t address)> on_unwatch;
  // Prints one user map, as print(@m, top, div) and the end of a run do.
  Status print_map(size_t user_map, uint32_t top = 0, uint32_t div = 0);
  // Every user map in bpftrace's exit order (by name; empty maps too).
  Status print_all_maps();

 private:
  EventDispatcher(const lang::ProgramInfo& info, const codegen::CompiledScript& script,
                  const ScriptMaps& maps, Output& out)
      : info_(&info), script_(&script), maps_(&maps), out_(&out), text_(&script.point_names) {}
  void problem(std::string text);
  // The async events' handlers (codegen/async_events.def names each event's).
#define ASYNC_EVENT(name, handler) void handler(const uint8_t* record, size_t len);
#include "engine/codegen/async_events.def"
#undef ASYNC_EVENT
  void clear_or_zero(const uint8_t* record, size_t len, bool clear);
  void command_event(uint64_t printf_id, std::span<const uint8_t> args);  // cat(), system(), join()
  void join_event(const std::string& separator, std::span<const uint8_t> args);
  // A value laid out by `types` with its point ids written as text (valid until the next call).
  std::span<const uint8_t> as_text(const std::vector<Type>& types, const uint8_t* data, size_t len);

  const lang::ProgramInfo* info_;
  const codegen::CompiledScript* script_;
  const ScriptMaps* maps_;
  Output* out_;
  std::vector<PrintfFormatter> printfs_;
  PointText text_;
  std::vector<std::vector<Type>> printf_ids_;  // per printf: its argument types when they hold
                                               // point ids, else empty
  std::vector<uint8_t> raw_, text_bytes_;
  uint64_t reader_lost_ = 0;    // PERF_RECORD_LOST total
  uint64_t lost_reported_ = 0;
  bool exit_ = false;
  int exit_code_ = 0;
  bool ignoring_ = false;
  std::vector<std::string> problems_;
};

}  // namespace rawprobe::runtime
