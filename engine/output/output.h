// The output stream of a run, in bpftrace 0.17's text or JSON (-f json) form.
//
// The runtime calls one method per thing to print; text is gathered in a buffer and written
// on flush() (call it after each batch of events; the destructor flushes too), so a burst of
// printf events costs one write(). Methods only append to the buffer: they never allocate
// per event once the buffer has grown.
//
//   text                                   json
//   Attaching 2 probes...                  {"type": "attached_probes", "data": {"probes": 2}}
//   <printf text as formatted>             {"type": "printf", "data": "<escaped text>"}
//   <strftime text>                        {"type": "time", "data": "<escaped text>"}
//   Lost 5 events                          {"type": "lost_events", "data": {"events": 5}}
//   @x[1]: 5  (see map_print.h)            {"type": "map", "data": {"@x": {"1": 5}}}
//   5 / abc / (1, abc)  (print(value))     {"type": "value", "data": 5}
//
// At the end of a run (exit() or a signal) bpftrace writes "\n\n" to its standard output,
// even under -o FILE, before printing the maps into the output: exit_separator().
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/base/result.h"
#include "engine/output/map_print.h"
#include "engine/output/printf_format.h"
#include "engine/output/value_format.h"

namespace rawprobe {

// Where maps go instead of the text stream under -f openmetrics|prometheus
// (engine/metrics/exposition_sink.h): it gets every printed map and writes on flush().
class MapSink {
 public:
  virtual ~MapSink() = default;
  virtual void map(const MapDesc& map, const MapEntries& entries) = 0;
  virtual Status flush() = 0;
};

class Output {
 public:
  // `fd`: where output goes (stdout or the -o file); `console_fd`: stdout, for the exit
  // separator. The fds stay owned by the caller.
  Output(OutputFormat format, int fd, int console_fd);
  ~Output();
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  OutputFormat format() const { return format_; }
  // Maps go to `sink` (owned by the caller) from now on; null: back to the text stream.
  void set_map_sink(MapSink* sink) { sink_ = sink; }

  void attached_probes(uint64_t count);
  void lost_events(uint64_t count);
  void printf_event(const PrintfFormatter& formatter, const uint8_t* args, size_t len);
  // Text printed as it is (cat()'s file, system()'s output); in JSON a message of `type`.
  void text_event(const char* type, std::string_view text);
  // time("fmt"): the current local time through strftime. Like bpftrace, a result that is
  // empty or longer than 63 bytes prints nothing and is reported as an error.
  Status time_event(const std::string& strftime_format);
  void map(const MapDesc& map, const MapEntries& entries, uint32_t top = 0, uint32_t div = 0);
  // print(expr) of a non-map value (Integer, String, Tuple).
  void value(const Type& type, const uint8_t* bytes);
  void exit_separator();

  // Writes what is buffered. Fails with the write error (EPIPE, ENOSPC, ...).
  Status flush();
  // The buffered, unwritten text (tests and -q dry runs read it).
  const std::string& pending() const { return buf_; }

 private:
  void message(const char* type, std::string_view text);
  void maybe_flush();

  OutputFormat format_;
  int fd_, console_fd_;
  std::string buf_;
  MapSink* sink_ = nullptr;
};

// strftime of the current local time as bpftrace's time() does it; error when strftime
// yields nothing or more than 63 bytes (bpftrace's 64-byte buffer).
Result<std::string> format_local_time(const std::string& strftime_format);

}  // namespace rawprobe
