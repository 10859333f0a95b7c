#include "engine/driver/run_script.h"

#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <memory>

#include "engine/base/warnings.h"
#include "engine/codegen/codegen.h"
#include "engine/driver/dumps.h"
#include "engine/driver/prepare.h"
#include "engine/driver/point_selection.h"
#include "engine/driver/privileges.h"
#include "engine/driver/release.h"
#include "engine/driver/report.h"
#include "engine/driver/test_bench_run.h"
#include "engine/lang/ast_dump.h"
#include "engine/driver/lazy_kernel_types.h"
#include "engine/lang/frontend.h"
#include "engine/lang/map_layout.h"
#include "engine/metrics/metrics_run.h"
#include "engine/lang/preprocess.h"
#include "engine/probes/begin_end.h"
#include "engine/probes/tracepoint.h"
#include "engine/probes/uprobe_attach.h"
#include "engine/probes/usdt_semaphore.h"
#include "engine/runtime/cpus.h"
#include "engine/runtime/dispatcher.h"
#include "engine/runtime/failed_updates.h"
#include "engine/runtime/symbol_budget.h"
#include "engine/runtime/event_loop.h"
#include "engine/runtime/script_maps.h"
#include "engine/runtime/value_text.h"
#include "engine/sys/bpf_map.h"
#include "engine/sys/call.h"
#include "engine/sys/features.h"
#include "engine/sys/pid_namespace.h"
#include "engine/sys/tracefs.h"

namespace rawprobe::driver {
namespace {

// The ring buffer's data size: one CPU's worth of bpftrace's perf buffer. Every page of it
// counts in our RSS twice (the reader maps the data pages twice so a record that wraps
// around reads as one piece, and the kernel maps them all at mmap time): at the previous
// 1 MiB that was 2 MiB, a third of the whole process. 256 KiB holds ~10,000 printf
// records, 100 ms of `make bench`'s 100,000 events/s stream, which it delivers without loss.
constexpr uint32_t kRingBufferBytes = 256u << 10;

int fail(const Error& err) { return exit_status(err); }

int fail(const std::vector<lang::Diagnostic>& diagnostics) {
  report(diagnostics);
  return 1;
}

struct BlockAttachment {
  bool is_end = false;
  std::unique_ptr<probes::Attachment> handle;
  size_t program = 0;  // its place among the loaded programs
};

Status write_start_time(const codegen::CompiledScript& script, const runtime::ScriptMaps& maps) {
  if (script.start_time_map < 0) return {};
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);  // bpf_ktime_get_ns()'s clock
  uint64_t ns = uint64_t(now.tv_sec) * 1000000000ull + uint64_t(now.tv_nsec);
  uint32_t key = 0;
  return sys::map_update(maps.fd(size_t(script.start_time_map)), &key, &ns);
}

// bpftrace's order: BEGIN's programs are attached and BEGIN runs before any other probe is
// attached, so nothing an event prints comes before what BEGIN prints (a tool's heading).
// A block that serves BEGIN and other points (`BEGIN, tracepoint:x { }`) is one attachment,
// so it goes with BEGIN's pass.
enum class AttachPass { Begin, Rest };

bool serves_kind(const std::vector<probes::AttachPoint>& served, probes::ProbeKind kind) {
  return std::any_of(served.begin(), served.end(), [kind](const probes::AttachPoint& pt) { return pt.kind == kind; });
}

// Attaches the programs of one pass, adding them to `into`; attach_in_block_order() puts the
// two passes' handles back in block order (iterators run in it).
Status attach_pass(const std::vector<LoadedProgram>& programs,
                   const std::vector<std::vector<probes::AttachPoint>>& points,
                   const probes::AttachOptions& options, lang::MissingProbes missing, AttachPass pass,
                   std::vector<BlockAttachment>& into) {
  // The kernel runs the programs of one event newest first (uprobe consumers, a tracepoint's
  // perf events), so blocks are attached last to first: blocks on the same event then run in
  // the order the script declares them, as bpftrace runs them.
  for (size_t index = programs.size(); index-- > 0;) {
    const LoadedProgram& p = programs[index];
    const std::vector<probes::AttachPoint>& block = points[p.compiled->block];
    std::vector<probes::AttachPoint> served;
    for (size_t i : p.compiled->points)
      if (i < block.size()) served.push_back(block[i]);
    if (served.empty()) continue;
    if (serves_kind(served, probes::ProbeKind::Begin) != (pass == AttachPass::Begin)) continue;
    int fd = p.fd.get();
    Result<std::unique_ptr<probes::Attachment>> a = probes::attach(served, {&fd, 1}, options);
    if (!a && missing != lang::MissingProbes::Error) {
      if (missing == lang::MissingProbes::Warn)
        std::fprintf(stderr, "rawprobe: warning: %s (missing_probes = warn: going on without it)\n",
                     a.error().message().c_str());
      continue;
    }
    if (!a) return a.error();
    // Kept until END has run when it serves END at all: a block such as `BEGIN,END { ... }` is
    // one attachment (its points' cookies are their places in it), and its BEGIN half, already
    // triggered, costs nothing while it waits.
    into.push_back({serves_kind(served, probes::ProbeKind::End), std::move(*a), index});
  }
  return {};
}

void attach_in_block_order(std::vector<BlockAttachment>& handles) {
  std::stable_sort(handles.begin(), handles.end(),
                   [](const BlockAttachment& a, const BlockAttachment& b) { return a.program < b.program; });
}

// A watchpoint waiting for its address (watchpoint:FUNC+argN) is not attached yet: its uprobe
// is what "Attaching N probes" counts, as bpftrace counts it.
bool waits_for_address(const probes::AttachPoint& p) { return p.kind == probes::ProbeKind::Watchpoint && p.watch_id; }

size_t count_points(const std::vector<std::vector<probes::AttachPoint>>& points) {
  size_t n = 0;
  for (const auto& block : points)
    for (const probes::AttachPoint& p : block) n += !waits_for_address(p);
  return n;
}

// -k's checks are branches: in a loop, each is one more path for the verifier to follow, so a
// loop that loads without -k may be too complex with it. Say so when the verifier gives up.
Error with_helper_check_hint(Error err, uint32_t helper_checks) {
  bool gave_up = err.detail.find("is too complex") != std::string::npos ||
                 err.detail.find("program is too large") != std::string::npos;
  if (helper_checks && gave_up && err.hint.empty())
    err.hint = std::string(helper_checks > 1 ? "-kk" : "-k") +
               " adds a branch after each checked helper call, one more path for the verifier in every loop "
               "iteration: loop fewer times, or run without " + (helper_checks > 1 ? "-kk (or with -k)" : "-k");
  return err;
}

// watchpoint:FUNC+argN: the uprobe on FUNC stopped the process and sent argN's address. The
// watchpoint is opened (once per address), then the process goes on (asyncwatchpoint did not
// stop it). A watchpoint that cannot be opened (no debug register left, a misaligned address)
// is reported and the run goes on, as in bpftrace.
void arm_watchpoint(std::vector<BlockAttachment>& attached, const runtime::Tracee* tracee, uint32_t watch_id,
                    uint64_t address, bool stopped) {
  for (BlockAttachment& a : attached) {
    if (!a.handle) continue;  // released at the end of the run: its request came too late
    Result<bool> armed = a.handle->arm_watchpoint(watch_id, address);
    if (!armed) std::fprintf(stderr, "rawprobe: %s\n", armed.error().message().c_str());
    if (!armed || *armed) break;
  }
  if (stopped && tracee && ::kill(tracee->pid(), SIGCONT) != 0)
    std::fprintf(stderr, "rawprobe: could not let pid %d go on (kill SIGCONT): %s\n", tracee->pid(),
                 std::strerror(errno));
}

bool any_point(const std::vector<std::vector<probes::AttachPoint>>& points,
               bool (*test)(const probes::AttachPoint&)) {
  for (const auto& block : points)
    for (const probes::AttachPoint& p : block)
      if (test(p)) return true;
  return false;
}

// -o FILE as root must not become a way to overwrite another file: a symlink planted at FILE
// is refused (O_NOFOLLOW), not followed; a new file gets 0644 less the caller's umask.
Result<sys::Fd> open_output(const Options& options) {
  // An exposition format replaces -o FILE whole at each print (metrics/exposition_sink.h).
  if (options.output_file.empty() || metrics::is_exposition(options.format)) return sys::Fd(dup(STDOUT_FILENO));
  int fd = open(options.output_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd >= 0) return sys::Fd(fd);
  int err = errno;
  std::string hint = "give -o a path in a writable directory";
  if (err == ELOOP) hint = "it is a symbolic link, which -o does not follow: give the path of the file itself";
  if (err == EISDIR) hint = "it is a directory: give -o a file name, e.g. " + options.output_file + "/rawprobe.out";
  return syscall_error("open the output file", "open", err, options.output_file, hint);
}

// Every run that loads programs removes the uprobe_events/kprobe_events entries of rawprobe
// processes that are gone, and says which; listing, --explain and --info change nothing.
void report_stale_events_removed() {
  Result<std::vector<std::string>> removed = sys::remove_stale_events();
  if (!removed) {
    if (warnings_enabled()) std::fprintf(stderr, "rawprobe: warning: %s\n", removed.error().message().c_str());
    return;
  }
  for (const std::string& event : *removed)
    std::fprintf(stderr, "rawprobe: removed %s, left by rawprobe process %d, which is gone\n", event.c_str(),
                 sys::event_owner(event.substr(event.find('/') + 1)));
}

}  // namespace

int run_script(Options& options) {
  if (Status s = read_program(options); !s) return fail(s.error());

  lang::PreprocessOptions pp;
  pp.include_dirs = options.include_dirs;
  pp.forced_includes = options.forced_includes;
  pp.have_btf = lang::kernel_has_btf();
  lang::PreprocessResult preprocessed = lang::preprocess(options.source_name(), options.program, pp);
  if (!preprocessed.ok) return fail(preprocessed.diagnostics);
  if (options.verbose)
    for (const std::string& note : preprocessed.notes) std::fprintf(stderr, "rawprobe: %s\n", note.c_str());
  const lang::SourceFile& src = preprocessed.source;
  if (options.pid > 0 && options.command.empty())
    if (Status s = check_process_access(options.pid); !s) return fail(s.error());
  probes::TracefsCatalog catalog;
  // Declared before the front end's result, so it outlives the C types that point into it.
  LazyKernelTypes kernel_types;
  lang::FrontEndResult front = lang::run_front_end(src, {.tracepoints = &catalog,
                                                         .kernel_types = &kernel_types,
                                                         .params = {options.params},
                                                         .child_command = !options.command.empty(),
                                                         .unsafe = options.unsafe,
                                                         .pid = options.pid});
  if (!front.ok) return fail(front.diagnostics);
  if (front.program.ast.options_help) {  // `-- --help`: the script's getopt() options
    std::fputs(lang::options_listing(front.program.ast.options).c_str(), stdout);
    return 0;
  }
  const lang::CheckedProgram& checked = front.program;
  runtime::use_strftime_formats(checked.info.time_formats);
  bool dump_only = !options.dumps.empty();
  for (DumpKind k : options.dumps)
    if (k == DumpKind::Ast) std::fputs(lang::dump_ast(checked.ast).c_str(), stdout);
  if (dump_only && options.dumps.size() == 1 && options.dumps[0] == DumpKind::Ast) return 0;
  bool attaching = !dump_only && !options.dry_run;
  Result<std::unique_ptr<metrics::MetricsRun>> metrics_run = std::unique_ptr<metrics::MetricsRun>();
  if (attaching)
    metrics_run = metrics::MetricsRun::start(
        {options.metrics_address, options.metrics_prefix, options.format, options.output_file}, checked, src);
  if (!metrics_run) return fail(metrics_run.error());
  if (*metrics_run) lang::keep_hist_sums(front.program.info);

  // The process first: its pid filters uprobes and resolves library names.
  std::optional<runtime::Tracee> tracee;
  if (attaching && !options.command.empty()) {
    Result<runtime::Tracee> t = runtime::Tracee::spawn(options.command);
    if (!t) return fail(t.error());
    tracee.emplace(std::move(*t));
  } else if (options.pid > 0) {
    Result<runtime::Tracee> t = runtime::Tracee::watch(options.pid);
    if (!t) return fail(t.error());
    tracee.emplace(std::move(*t));
  }

  probes::ExpandContext ctx;
  ctx.pid = tracee ? tracee->pid() : -1;
  if (tracee && tracee->is_child()) ctx.executable = tracee->executable();
  ctx.unsafe = options.unsafe;
  ctx.maxactive = options.kretprobe_maxactive;
  const lang::Settings& settings = front.settings;
  ExpandedBlocks expanded = expand_blocks(src, checked.ast, ctx, settings.missing_probes);
  report(expanded.diagnostics);
  if (!expanded.ok) return 1;
  if (Status s = select_points(expanded.points, {options.blocks, options.has_probe_filter ? &options.probe_filter : nullptr});
      !s)
    return fail(s.error());
  const std::vector<std::vector<probes::AttachPoint>>& points = expanded.points;
  if (count_points(points) > settings.max_probes)
    return fail(make_error("the script resolves to " + std::to_string(count_points(points)) + " probes, more than " +
                               std::to_string(settings.max_probes) + " (config variable max_probes)",
                           "", "narrow the wildcards, or raise max_probes in a config block or BPFTRACE_MAX_PROBES"));
  if (Status s = check_privileges({&points, {options.attach_mode, ctx.pid}, attaching}); !s) return fail(s.error());
  // Dynamic events of rawprobe processes that died without removing them (SIGKILL), now that
  // the front end and the probes have mounted tracefs if they needed it.
  report_stale_events_removed();

  Result<uint32_t> ncpus = runtime::possible_cpus();
  if (!ncpus) return fail(ncpus.error());
  codegen::CompileOptions copts;
  copts.ringbuf = options.event_buffer == EventBuffer::Ringbuf ||
                  (options.event_buffer == EventBuffer::Auto && sys::has(sys::Feature::ringbuf));
  copts.ringbuf_bytes = kRingBufferBytes;
  copts.probe_read_user = sys::has(sys::Feature::probe_read_user);
  copts.ncpus = *ncpus;
  copts.hash_maps_on_demand = [] { return sys::has(sys::Feature::hash_on_demand); };
  copts.has_helper = [](bpf::Helper h) {
    if (h == bpf::Helper::jiffies64) return sys::has(sys::Feature::jiffies64);
    if (h == bpf::Helper::send_signal) return sys::has(sys::Feature::send_signal);
    if (h == bpf::Helper::for_each_map_elem) return sys::has(sys::Feature::for_each_map_elem);
    if (h == bpf::Helper::loop) return sys::has(sys::Feature::loop);
    if (h == bpf::Helper::ktime_get_boot_ns) return sys::has(sys::Feature::ktime_get_boot_ns);
    if (h == bpf::Helper::ktime_get_tai_ns) return sys::has(sys::Feature::ktime_get_tai_ns);
    if (h == bpf::Helper::get_ns_current_pid_tgid) return sys::has(sys::Feature::ns_current_pid_tgid);
    if (h == bpf::Helper::probe_write_user) return sys::has(sys::Feature::probe_write_user);
    return true;
  };
  if (tracee && tracee->is_child()) copts.child_pid = tracee->pid();
  if (Result<sys::PidNamespace> ns = sys::own_pid_namespace(); ns && !ns->initial) {
    copts.pid_ns_dev = ns->dev;
    copts.pid_ns_ino = ns->ino;
  }
  copts.map_max_entries = uint32_t(std::min<uint64_t>(settings.max_map_keys, UINT32_MAX));
  copts.helper_checks = options.helper_checks;
  copts.source_name = options.source_name();
  copts.source = &src;
  copts.attach.mode = options.attach_mode;
  copts.attach.semaphore_pid = ctx.pid;
  Result<codegen::CompiledScript> compiled = codegen::compile(checked, points, copts);
  if (!compiled) return exit_status(compiled.error(), &src);
  const codegen::CompiledScript& script = *compiled;

  Result<runtime::ScriptMaps> maps = runtime::ScriptMaps::create(script, checked.info, *ncpus);
  if (!maps) return fail(maps.error());
  Result<size_t> symbol_budget = runtime::symbol_budget_bytes(options.symbol_cache_mb);
  if (!symbol_budget) return fail(symbol_budget.error());
  maps->enable_symbols(*symbol_budget, options.folded);
  if (script.programs.size() > settings.max_bpf_progs)
    return fail(make_error("the script needs " + std::to_string(script.programs.size()) + " BPF programs, more than " +
                               std::to_string(settings.max_bpf_progs) + " (config variable max_bpf_progs)",
                           "", "raise max_bpf_progs in a config block or BPFTRACE_MAX_BPF_PROGS"));
  Result<std::vector<LoadedProgram>> loaded = load_programs(script, maps->fds());
  if (!loaded) return fail(with_helper_check_hint(loaded.error(), options.helper_checks));

  for (DumpKind k : options.dumps)
    if (k != DumpKind::Ast)
      if (Status s = print_program_dump(k, *loaded, stdout); !s) return fail(s.error());
  if (!attaching) {
    if (options.dry_run)
      std::fprintf(stderr, "rawprobe: dry run: %zu program(s) loaded, %zu probe(s) resolved, nothing attached\n",
                   loaded->size(), count_points(points));
    return 0;
  }

  Result<sys::Fd> out_fd = open_output(options);
  if (!out_fd) return fail(out_fd.error());
  Output out(options.format, out_fd->get(), STDOUT_FILENO);
  if (*metrics_run) (*metrics_run)->connect(*maps, out);
  Result<runtime::EventDispatcher> dispatcher = runtime::EventDispatcher::make(checked.info, script, *maps, out);
  if (!dispatcher) return fail(dispatcher.error());
  std::unique_ptr<runtime::EventReader> events;
  if (script.events_map >= 0) {
    const codegen::MapDef& def = script.maps[size_t(script.events_map)];
    int fd = maps->fd(size_t(script.events_map));
    Result<std::unique_ptr<runtime::EventReader>> reader =
        script.events_use_ringbuf ? runtime::open_ring_buffer(fd, def.max_entries)
                                  : runtime::open_perf_buffer(fd, uint32_t(settings.perf_rb_pages));
    if (!reader) return fail(reader.error());
    events = std::move(*reader);
  }
  Result<runtime::StopSignals> signals = runtime::StopSignals::install();
  if (!signals) return fail(signals.error());
  if (Status s = write_start_time(script, *maps); !s) return fail(s.error());

  if (options.blocks != BlockSet::Ordinary) {
    if (tracee)
      if (Status s = tracee->release(); !s) return fail(s.error());
    BlockRun run{&*loaded, &points, {options.attach_mode, ctx.pid}, {events.get(), &*dispatcher, &out}, out_fd->get()};
    bool all_passed = true;
    if (options.blocks == BlockSet::Tests) {
      Result<bool> passed = run_test_blocks(run);
      if (!passed) return fail(passed.error());
      all_passed = *passed;
    } else if (Status s = run_bench_blocks(run); !s) {
      return fail(s.error());
    }
    out.exit_separator();
    if (settings.print_maps_on_exit)
      if (Status s = dispatcher->print_all_maps(); !s) return fail(s.error());
    if (Status s = out.flush(); !s) return fail(s.error());
    return all_passed ? 0 : 1;
  }
  if (!options.quiet) out.attached_probes(count_points(points));
  if (Status s = out.flush(); !s) return fail(s.error());
  // Semaphores written in the command's memory need its binary mapped: run it to the exec
  // that maps every one of them, and hold it there.
  if (tracee && tracee->is_child() && any_point(points, probes::semaphore_in_process_memory)) {
    auto maps_every_semaphore = [&](pid_t pid) {
      for (const auto& block : points)
        for (const probes::AttachPoint& p : block)
          if (probes::semaphore_in_process_memory(p) && !probes::maps_file_offset(pid, p.path, p.ref_ctr_offset))
            return false;
      return true;
    };
    if (Status s = tracee->run_to_exec(maps_every_semaphore); !s) return fail(s.error());
  }
  probes::AttachOptions attach_options{options.attach_mode, ctx.pid};
  // Filled in two passes around BEGIN (attach_pass); the handler below only runs once the
  // event loop does, after both.
  std::vector<BlockAttachment> attached;
  const runtime::Tracee* traced = tracee ? &*tracee : nullptr;
  dispatcher->on_watch = [&attached, traced](uint32_t id, uint64_t address, bool stopped) {
    arm_watchpoint(attached, traced, id, address, stopped);
  };
  dispatcher->on_unwatch = [&attached](uint64_t address) {
    for (BlockAttachment& a : attached)
      if (a.handle) a.handle->unwatch(address);
  };

  runtime::LoopParts parts{events.get(), &*dispatcher, &out, &*signals, tracee ? &*tracee : nullptr,
                          *metrics_run ? (*metrics_run)->service() : nullptr};
  if (any_point(points, [](const probes::AttachPoint& p) { return p.kind == probes::ProbeKind::Self; }))
    parts.on_sigusr1 = probes::trigger_sigusr1;
  if (Status s = attach_pass(*loaded, points, attach_options, settings.missing_probes, AttachPass::Begin, attached); !s)
    return fail(s.error());
  probes::trigger_begin();
  runtime::Records begin_records = runtime::take_pending_records(parts);
  if (Status s = attach_pass(*loaded, points, attach_options, settings.missing_probes, AttachPass::Rest, attached); !s)
    return fail(s.error());
  attach_in_block_order(attached);
  runtime::handle_records(parts, begin_records);
  if (tracee)
    if (Status s = tracee->release(); !s) return fail(s.error());
  // Iterators run to their end now; a script with one ends after it, as in bpftrace.
  size_t iterators = 0;
  for (BlockAttachment& a : attached) {
    Result<size_t> ran = a.handle->run_iterators();
    if (!ran) return fail(ran.error());
    iterators += *ran;
    // As bpftrace says it; reading the file runs the program from now on.
    for (const std::string& pin : a.handle->pinned_iterators())
      out.text_event("pinned", "Program pinned to " + pin + "\n");
  }
  Result<runtime::StopReason> stop = iterators ? Result<runtime::StopReason>(runtime::StopReason::Exit)
                                               : runtime::run_event_loop(parts);
  if (!stop) return fail(stop.error());

  // Detach everything but END, so END's output is the last, then run END.
  std::vector<std::unique_ptr<probes::Attachment>*> not_end;
  for (BlockAttachment& a : attached)
    if (!a.is_end) not_end.push_back(&a.handle);
  release_together(std::move(not_end), sys::tracing());
  // A process stopped by a watchpoint's uprobe whose request came after exit() (and is
  // ignored) must not stay stopped.
  if (tracee && any_point(points, waits_for_address)) ::kill(tracee->pid(), SIGCONT);
  // What the probes produced until they were detached: printed, unless it came after an
  // exit(), which drops it as bpftrace does; only then may END's output be handled.
  if (Status s = runtime::drain_events(parts); !s) return fail(s.error());
  dispatcher->resume();
  probes::trigger_end();
  Status drained = runtime::drain_events(parts);
  out.exit_separator();
  Status printed = settings.print_maps_on_exit ? dispatcher->print_all_maps() : Status{};
  Status flushed = out.flush();
  attached.clear();
  Result<std::vector<std::string>> failed = runtime::failed_update_warnings(script, checked.info, *maps);
  if (!failed) return fail(failed.error());
  if (warnings_enabled())
    for (const std::string& w : *failed) std::fprintf(stderr, "%s\n", w.c_str());
  for (const std::string& p : dispatcher->problems()) std::fprintf(stderr, "rawprobe: %s\n", p.c_str());
  if (options.verbose && maps->symbols()) {
    const symbols::SymbolCacheStats& st = maps->symbols()->user_symbols().stats();
    std::fprintf(stderr, "rawprobe: user symbol tables: %zu loaded, %zu evicted, peak %zu bytes of a %zu-byte budget\n",
                 st.loads, st.evictions, st.peak_bytes, maps->symbols()->user_symbols().budget());
  }
  if (!drained) return fail(drained.error());
  if (!printed) return fail(printed.error());
  if (!flushed) return fail(flushed.error());
  return dispatcher->exit_code();
}

}  // namespace rawprobe::driver
