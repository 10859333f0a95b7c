#include "engine/driver/options.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "engine/metrics/listen_address.h"
#include "engine/metrics/map_metrics.h"
#include "engine/sys/tracefs.h"

namespace rawprobe::driver {
namespace {

Error usage_error(std::string what, std::string hint = {}) {
  return make_error(std::move(what), {}, hint.empty() ? "run rawprobe --help for the options" : std::move(hint));
}

// Short options that take a value.
bool takes_value(char c) {
  return c == 'e' || c == 'c' || c == 'p' || c == 'o' || c == 'f' || c == 'I' || c == 'B';
}

struct Parser {
  Options opt;
  bool have_program = false;
  bool list = false;
  std::vector<std::string> positional;

  Status set_program_inline(const std::string& text) {
    if (have_program) return usage_error("more than one program given", "give either -e PROGRAM or one FILE");
    opt.program = text;
    opt.inline_program = true;
    have_program = true;
    return {};
  }

  Status add_dump(DumpKind kind) {
    for (DumpKind k : opt.dumps)
      if (k == kind) return {};
    opt.dumps.push_back(kind);
    return {};
  }

  Status short_option(char c, const std::string& value) {
    switch (c) {
      case 'e': return set_program_inline(value);
      case 'c':
        if (!opt.command.empty()) return usage_error("-c given twice");
        if (value.empty()) return usage_error("-c needs a command", "e.g. -c 'build/samples/fun'");
        opt.command = value;
        return {};
      case 'p': {
        char* end = nullptr;
        errno = 0;
        long v = std::strtol(value.c_str(), &end, 10);
        if (value.empty() || *end || errno || v <= 0 || v > INT_MAX)  // bpftrace 0.17's words first
          return usage_error("pid '" + value + "' is not a valid decimal number",
                             "-p needs a process id: a positive number, as ps shows it");
        opt.pid = pid_t(v);
        return {};
      }
      case 'o':
        if (value.empty()) return usage_error("-o needs a file name");
        opt.output_file = value;
        return {};
      case 'f':
        if (value == "text") opt.format = OutputFormat::Text;
        else if (value == "json") opt.format = OutputFormat::Json;
        else if (value == "folded") opt.format = OutputFormat::Text, opt.folded = true;
        else if (value == "openmetrics") opt.format = OutputFormat::OpenMetrics;
        else if (value == "prometheus") opt.format = OutputFormat::Prometheus;
        else return usage_error("Invalid output format \"" + value + "\"",  // bpftrace 0.17's words
                                "valid formats: text, json, folded, openmetrics, prometheus");
        return {};
      case 'I':
        if (value.empty()) return usage_error("-I needs a directory");
        opt.include_dirs.push_back(value);
        return {};
      case 'B':
        if (value != "none" && value != "line" && value != "full")  // bpftrace 0.17's words
          return usage_error("USAGE: -B must be either 'line', 'full', or 'none'.",
                             "rawprobe writes each batch of events whole as it reads it, so all three print alike");
        opt.buffering = value;
        return {};
      case 'q': opt.quiet = true; return {};
      case 'k':
        if (++opt.helper_checks > 2)  // bpftrace 0.17 prints its usage here
          return usage_error("USAGE: -k may be given at most twice",
                             "-k checks the helpers that fail rarely, -kk also the probe reads and map lookups");
        return {};
      case 'v': opt.verbose = true; return {};
      case 'l': list = true; return {};
      case 'd': return add_dump(DumpKind::Bpf);
      case 'h': opt.mode = Mode::Help; return {};
      case 'V': opt.mode = Mode::Version; return {};
      default:
        return usage_error(std::string("invalid option -- '") + c + "'");  // getopt's words, as bpftrace prints them
    }
  }

  // --name or --name=value; `next` gives the following argument for options with a value.
  Status long_option(const std::string& arg, int& i, int argc, const char* const* argv) {
    std::string name = arg.substr(2), value;
    bool has_value = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    auto need_value = [&]() -> Status {
      if (has_value) return {};
      if (i + 1 >= argc) return usage_error("--" + name + " needs a value");
      value = argv[++i];
      has_value = true;
      return {};
    };
    auto no_value = [&]() -> Status {
      if (has_value) return usage_error("--" + name + " takes no value");
      return {};
    };
    if (name == "dump") {
      if (Status s = need_value(); !s) return s;
      Result<DumpKind> kind = parse_dump_kind(value);
      if (!kind) return kind.error();
      return add_dump(*kind);
    }
    if (name == "explain") {
      if (Status s = need_value(); !s) return s;
      opt.explain = value;
      opt.mode = Mode::Explain;
      return {};
    }
    if (name == "attach-mode") {
      if (Status s = need_value(); !s) return s;
      Result<probes::AttachMode> mode = probes::parse_attach_mode(value);
      if (!mode) return mode.error();
      opt.attach_mode = *mode;
      return {};
    }
    if (name == "kretprobe-maxactive") {
      if (Status s = need_value(); !s) return s;
      char* end = nullptr;
      errno = 0;
      unsigned long v = std::strtoul(value.c_str(), &end, 10);
      if (value.empty() || value[0] == '-' || *end || errno || v < 1 || v > sys::DynamicEvent::kMaxActiveLimit)
        return usage_error("--kretprobe-maxactive needs a number from 1 to " +
                               std::to_string(sys::DynamicEvent::kMaxActiveLimit) + ", not '" + value + "'",
                           "the kernel's limit for a kretprobe's maxactive is " +
                               std::to_string(sys::DynamicEvent::kMaxActiveLimit));
      opt.kretprobe_maxactive = uint32_t(v);
      return {};
    }
    if (name == "symbol-cache-mb") {
      if (Status s = need_value(); !s) return s;
      char* end = nullptr;
      errno = 0;
      unsigned long v = std::strtoul(value.c_str(), &end, 10);
      if (value.empty() || value[0] == '-' || *end || errno || v < 1 || v > 1024 * 1024)
        return usage_error("--symbol-cache-mb needs a number of MiB from 1 to 1048576, not '" + value + "'");
      opt.symbol_cache_mb = v;
      return {};
    }
    if (name == "metrics") {
      if (Status s = need_value(); !s) return s;
      if (Result<metrics::ListenAddress> a = metrics::parse_listen_address(value); !a) return a.error();
      opt.metrics_address = value;
      return {};
    }
    if (name == "metrics-prefix") {
      if (Status s = need_value(); !s) return s;
      if (!metrics::is_metric_name(value))
        return usage_error("--metrics-prefix '" + value + "' is not a metric name",
                           "use letters, digits, '_' and ':', not starting with a digit, e.g. --metrics-prefix=web_probe");
      opt.metrics_prefix = value;
      return {};
    }
    if (name == "include") {
      if (Status s = need_value(); !s) return s;
      if (value.empty()) return usage_error("--include needs a file");
      opt.forced_includes.push_back(value);
      return {};
    }
    if (name == "probe-filter") {
      if (Status s = need_value(); !s) return s;
      opt.probe_filter = value;
      opt.has_probe_filter = true;
      return {};
    }
    if (name == "event-buffer") {
      if (Status s = need_value(); !s) return s;
      if (value == "auto") opt.event_buffer = EventBuffer::Auto;
      else if (value == "ringbuf") opt.event_buffer = EventBuffer::Ringbuf;
      else if (value == "perf") opt.event_buffer = EventBuffer::Perf;
      else return usage_error("unknown event buffer '" + value + "'", "use --event-buffer=auto, ringbuf or perf");
      return {};
    }
    Status s = no_value();
    if (!s) return s;
    if (name == "unsafe") opt.unsafe = true;
    else if (name == "dry-run") opt.dry_run = true;
    else if (name == "test" || name == "bench") {
      BlockSet set = name == "test" ? BlockSet::Tests : BlockSet::Benches;
      if (opt.blocks != BlockSet::Ordinary && opt.blocks != set)
        return usage_error("--" + name + " conflicts with --" + (name == "test" ? "bench" : "test"),
                           "run the tests and the benchmarks in two runs");
      opt.blocks = set;
    }
    else if (name == "trace-syscalls") opt.trace_syscalls = true;
    else if (name == "info") opt.mode = Mode::Info;
    else if (name == "no-warnings") opt.no_warnings = true;
    else if (name == "usdt-file-activation") opt.usdt_file_activation = true;
    else if (name == "version") opt.mode = Mode::Version;
    else if (name == "help") opt.mode = Mode::Help;
    else return usage_error("unrecognized option '--" + name + "'");  // getopt's words, as bpftrace prints them
    return {};
  }

  Status parse(int argc, const char* const* argv) {
    bool options_done = false;
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (options_done || arg.size() < 2 || arg[0] != '-') {
        positional.push_back(arg);
        continue;
      }
      if (arg == "--") {
        options_done = true;
        continue;
      }
      if (arg[1] == '-') {
        if (Status s = long_option(arg, i, argc, argv); !s) return s;
        continue;
      }
      for (size_t k = 1; k < arg.size(); ++k) {
        char c = arg[k];
        if (!takes_value(c)) {
          if (Status s = short_option(c, {}); !s) return s;
          continue;
        }
        std::string value = arg.substr(k + 1);
        if (value.empty()) {
          if (i + 1 >= argc) return usage_error(std::string("-") + c + " needs a value");
          value = argv[++i];
        }
        if (Status s = short_option(c, value); !s) return s;
        break;
      }
    }
    return finish();
  }

  Status finish() {
    if (opt.mode == Mode::Help || opt.mode == Mode::Version || opt.mode == Mode::Info) return {};
    if (list) {
      if (opt.mode == Mode::Explain) return usage_error("-l and --explain cannot be combined");
      if (have_program) return usage_error("-l lists probes; it runs no program", "drop -e, or drop -l");
      if (positional.size() > 1) return usage_error("-l takes one pattern, got " + std::to_string(positional.size()));
      if (!positional.empty()) opt.list_pattern = positional.front();
      opt.mode = Mode::List;
      return {};
    }
    if (opt.kretprobe_maxactive > 0 && opt.attach_mode == probes::AttachMode::Pmu)
      return usage_error("--kretprobe-maxactive cannot be used with --attach-mode=pmu",
                         "the kprobe PMU has no maxactive field; kretprobes with maxactive attach "
                         "through kprobe_events: use --attach-mode=auto or legacy");
    if (opt.mode == Mode::Explain) {
      if (have_program || !positional.empty())
        return usage_error("--explain takes one probe and runs no program");
      return {};
    }
    // The first word is the script FILE unless -e gave the program; the words after the
    // program are its positional parameters $1, $2, ...
    auto words = positional.begin();
    if (!have_program && words != positional.end()) {
      opt.program_file = *words++;
      have_program = true;
    }
    opt.params.assign(words, positional.end());
    if (!have_program)  // bpftrace prints its usage here; scripts look for its first word
      return usage_error("USAGE: rawprobe [options] FILE [PARAM...] | rawprobe [options] -e 'PROGRAM' [PARAM...]",
                         "no program given: give a script FILE or -e PROGRAM (rawprobe --help lists the options)");
    if (!opt.command.empty() && opt.pid > 0)
      return usage_error("-c and -p cannot be combined", "trace a new command with -c, or a running process with -p");
    return {};
  }
};

}  // namespace

Result<DumpKind> parse_dump_kind(std::string_view text) {
  if (text == "ast") return DumpKind::Ast;
  if (text == "bpf") return DumpKind::Bpf;
  if (text == "xlated") return DumpKind::Xlated;
  if (text == "jited-size") return DumpKind::JitedSize;
  return usage_error("unknown dump '" + std::string(text) + "'",
                     "use --dump=ast, --dump=bpf, --dump=xlated or --dump=jited-size");
}

const char* dump_kind_name(DumpKind kind) {
  switch (kind) {
    case DumpKind::Ast: return "ast";
    case DumpKind::Bpf: return "bpf";
    case DumpKind::Xlated: return "xlated";
    case DumpKind::JitedSize: return "jited-size";
  }
  return "?";
}

Result<Options> parse_options(int argc, const char* const* argv) {
  Parser p;
  if (Status s = p.parse(argc, argv); !s) return s.error();
  return std::move(p.opt);
}

Status read_program(Options& options) {
  if (options.inline_program) return {};
  std::ostringstream text;
  if (options.program_file == "-") {
    text << std::cin.rdbuf();
  } else {
    std::ifstream in(options.program_file, std::ios::binary);
    if (!in)  // bpftrace 0.17's words
      return make_error("failed to open file '" + options.program_file + "': " + std::strerror(errno), {},
                        "give an existing script file, or the program itself with -e");
    text << in.rdbuf();
  }
  options.program = text.str();
  return {};
}

std::string usage_text() {
  return "usage: rawprobe [options] FILE [PARAM...]\n"
         "       rawprobe [options] -e PROGRAM [PARAM...]\n"
         "       rawprobe -l [PATTERN] [-v]      rawprobe --explain PROBE\n"
         "\n"
         "  -e PROGRAM           run PROGRAM (bpftrace syntax)\n"
         "  PARAM...             the script's $1, $2, ... ($# counts them; str($1) is the text)\n"
         "  -c CMD               run CMD, held before exec until every probe is attached;\n"
         "                       stop when it exits (uprobes/usdt see only CMD)\n"
         "  -p PID               trace only process PID with uprobes/usdt; stop when it exits\n"
         "  -o FILE              write the output to FILE\n"
         "  -I DIR               look for #include files in DIR (before the system's)\n"
         "  --include FILE       read FILE first, as if the script began with #include \"FILE\"\n"
         "  -q                   quiet: no \"Attaching N probes...\" line\n"
         "  -B MODE              output buffering, none, line or full (accepted as bpftrace's;\n"
         "                       rawprobe writes each batch of events whole as it reads it)\n"
         "  --no-warnings        print no WARNING: lines\n"
         "  -k                   warn when a BPF helper fails while running (map update and\n"
         "                       delete, stacks, signal, ...), pointing at the call\n"
         "  -kk                  also warn when a probe read fails or a map lookup misses\n"
         "  --usdt-file-activation\n"
         "                       set USDT semaphores in every process that maps the file\n"
         "                       (what rawprobe does wherever the kernel counts them, 4.20+)\n"         "  -f FORMAT            output format: text, json (bpftrace's NDJSON records), folded\n"
         "                       (maps keyed by stacks as flame graph input, one\n"
         "                       'frame;frame;frame count' line each), openmetrics or\n"
         "                       prometheus (maps as a metrics exposition; with -o FILE each\n"
         "                       one replaces FILE whole)\n"
         "  --symbol-cache-mb=N  memory for user symbol tables, whole files dropped least recently used\n"
         "                       first (default 64, or $RAWPROBE_SYMBOL_CACHE_MB)\n"
         "  --metrics ADDR       serve the maps as Prometheus metrics at http://ADDR/metrics\n"
         "                       while running (ADDR: 127.0.0.1:9435, [::]:9435, ...)\n"
         "  --metrics-prefix=P   metric names start with P_ (default rawprobe)\n"
         "  -d                   same as --dump=bpf\n"
         "  --dump=KIND          print, then stop without attaching (like bpftrace -d):\n"
         "                       ast, bpf (generated BPF with source lines), xlated (the\n"
         "                       kernel's rewritten program), jited-size\n"
         "  -l [PATTERN]         list probes (with -v: fields, USDT arguments, symbols)\n"
         "  -v                   verbose\n"
         "  --explain PROBE      show how PROBE would be attached, without attaching it\n"
         "  --dry-run            compile and load every program (the verifier checks them),\n"
         "                       resolve every probe, then stop without attaching\n"
         "  --test               run only the script's test:NAME blocks, one at a time, and\n"
         "                       report each as passed or failed (status 1 if any failed)\n"
         "  --bench              run only the script's bench:NAME blocks, each many times, and\n"
         "                       print the average time of one run\n"
         "  --probe-filter REGEX attach only the probes whose full name REGEX matches (BEGIN,\n"
         "                       END and self always run); an error when it matches none\n"
         "  --unsafe             allow uprobe offsets whose instruction boundary cannot be checked\n"
         "  --attach-mode=MODE   auto, pmu (perf_event_open of the uprobe/kprobe PMU) or\n"
         "                       legacy (tracefs uprobe_events/kprobe_events)\n"
         "  --kretprobe-maxactive=N\n"
         "                       let each kretprobe follow up to N calls of its function in\n"
         "                       flight at once (1-4096; the kernel's default is 2 per CPU,\n"
         "                       at least 10, and returns beyond it go unseen); kretprobes\n"
         "                       then attach through kprobe_events (r<N>:), so not with\n"
         "                       --attach-mode=pmu\n"
         "  --event-buffer=KIND  auto (ring buffer when the kernel has one), ringbuf, or perf\n"
         "                       (one perf ring per CPU, the fallback for kernels before 5.8)\n"
         "  --info               the kernel's BPF features\n"
         "  --trace-syscalls     print every bpf(), perf_event_open(), ioctl(), tracefs\n"
         "                       write and USDT semaphore write, decoded, on stderr\n"
         "  -V, --version        print the version\n"
         "  -h, --help           this text\n";
}

}  // namespace rawprobe::driver
