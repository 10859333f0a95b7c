// rawprobe's command line, parsed into one value. Bad usage is an Error whose message says
// which option was wrong and what to write instead; main() prints it and exits 2.
//
//   rawprobe [options] FILE [PARAM...] | -e PROGRAM [PARAM...]
//   rawprobe -l [PATTERN] [-v] [-p PID]       rawprobe --explain PROBE [-p PID]
// Short options may be grouped (-lv, -qe PROGRAM); an option's value is the rest of the
// group or the next argument (-p123, -p 123). Long options take `=VALUE` or the next argument.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

#include "engine/base/result.h"
#include "engine/output/value_format.h"
#include "engine/probes/provider.h"

namespace rawprobe::driver {

enum class DumpKind { Ast, Bpf, Xlated, JitedSize };
Result<DumpKind> parse_dump_kind(std::string_view text);  // ast | bpf | xlated | jited-size
const char* dump_kind_name(DumpKind kind);

enum class Mode { Run, List, Explain, Info, Version, Help };

// Where async events come back (DESIGN.md practice 6, a named fallback): auto takes the ring
// buffer when the kernel has one (5.8) and the perf buffer otherwise; the others force one.
enum class EventBuffer { Auto, Ringbuf, Perf };

// Which blocks a run runs (bpftrace 0.26.1's --test and --bench): the ordinary ones, with
// test: and bench: blocks left out; or only the test: blocks, or only the bench: blocks,
// each on its own, with a report (engine/driver/test_bench_run.h).
enum class BlockSet { Ordinary, Tests, Benches };

struct Options {
  Mode mode = Mode::Run;
  std::string program;        // the script's text (-e PROGRAM, or FILE's contents once read)
  std::vector<std::string> params;  // words after the program: $1, $2, ...
  std::string program_file;   // FILE; empty with -e
  bool inline_program = false;
  std::string command;        // -c
  pid_t pid = -1;             // -p
  std::string output_file;    // -o
  bool quiet = false;         // -q
  OutputFormat format = OutputFormat::Text;
  bool folded = false;        // -f folded: text, with stack-keyed maps as folded lines
  size_t symbol_cache_mb = 0; // --symbol-cache-mb; 0: $RAWPROBE_SYMBOL_CACHE_MB or the default
  std::vector<DumpKind> dumps;  // -d (bpf) and --dump=KIND, each once, in order given
  std::string list_pattern;   // -l [PATTERN]
  bool verbose = false;       // -v (with -l: -lv)
  std::string explain;        // --explain PROBE
  bool unsafe = false;
  bool dry_run = false;
  BlockSet blocks = BlockSet::Ordinary;  // --test, --bench
  // --probe-filter REGEX: only the probes whose full name ("tracepoint:syscalls:sys_enter_read",
  // "test:parse") the ECMAScript regex finds a match in are attached; BEGIN, END and self are
  // kept whatever it says (engine/driver/probe_filter.h).
  std::string probe_filter;
  bool has_probe_filter = false;
  probes::AttachMode attach_mode = probes::AttachMode::Auto;
  // --kretprobe-maxactive=N: how many calls of a kretprobe'd function may be in flight at once
  // (0: the kernel's default). Only kprobe_events can carry it, so it sends kretprobes down
  // the legacy path and cannot be combined with --attach-mode=pmu.
  uint32_t kretprobe_maxactive = 0;
  EventBuffer event_buffer = EventBuffer::Auto;  // --event-buffer=auto|ringbuf|perf
  bool trace_syscalls = false;
  std::string metrics_address;  // --metrics ADDR (checked by metrics::parse_listen_address)
  std::string metrics_prefix = "rawprobe";  // --metrics-prefix: metric names' first word
  std::vector<std::string> include_dirs;     // -I DIR, searched before the system's
  std::vector<std::string> forced_includes;  // --include FILE, as if #include "FILE" came first
  // -B none|line|full, bpftrace's output buffering. rawprobe writes what it read at each
  // wakeup whole, never part of a line, so every mode prints the same; the flag is checked
  // and accepted so scripts written for bpftrace run unchanged.
  std::string buffering = "line";
  bool no_warnings = false;           // --no-warnings: no "WARNING: ..." lines
  // -k: 1, -kk: 2. How many helper calls the programs check for an error and report as
  // warnings while running (codegen/gen_helper_errors.cpp says which).
  uint32_t helper_checks = 0;
  // --usdt-file-activation: bpftrace's way to set USDT semaphores in every process that maps
  // the file. rawprobe does that already wherever the kernel counts them (ref_ctr_offset,
  // 4.20); without it, semaphores are set only in the -p/-c process, and the flag says so.
  bool usdt_file_activation = false;

  // The name errors and annotations use for the script: FILE, or "-e" for inline programs.
  std::string source_name() const { return inline_program ? "-e" : program_file; }
};

// argv[0] is skipped. The script file is not read here (see read_program).
Result<Options> parse_options(int argc, const char* const* argv);
// Fills options.program from options.program_file ("-" is standard input).
Status read_program(Options& options);

// The --help text.
std::string usage_text();

}  // namespace rawprobe::driver
