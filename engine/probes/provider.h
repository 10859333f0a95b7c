// The probe providers (DESIGN.md practice 5): one file per provider, each behind the same
// small interface:
//
//   parse    engine/lang/probe_spec.h turns the text into a lang::ProbeSpec
//   resolve  expand(): the spec becomes concrete AttachPoints (wildcards, library names,
//            -p PID, symbol -> file offset, USDT note -> arguments, tracepoint -> fields)
//   attach   attach(): ONE loaded program per probe block goes on every point of the block;
//            the bpf cookie of point i is i, so the program tells the points apart with
//            bpf_get_attach_cookie() (for `probe`, `func` and per-location USDT arguments)
//   list     list(): the `-l` lines of this provider that match a pattern
//
// An Attachment is an RAII handle: destroying it detaches every link and perf event of the
// block and removes the tracefs events it created, on every path.
//
// Who calls what:
//   the semantic pass / codegen   expand() per spec of a block, concatenating the points
//                                  (the block's point i = cookie i), program_type(),
//                                  load_plan() before loading the block's program
//   the runtime                    attach() per block, keeps the handles, drops them at exit;
//                                  trigger_begin()/trigger_end() (begin_end.h) around the run
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "arch/arch.h"
#include "elf/usdt_args.h"
#include "engine/base/result.h"
#include "engine/lang/probe_spec.h"
#include "engine/lang/tracepoint_format.h"
#include "engine/probes/probe_types.h"
#include "engine/sys/attach.h"
#include "engine/sys/fd.h"

namespace rawprobe::probes {

// A USDT argument of one location, with what codegen needs beyond the parsed spec.
struct UsdtArgument {
  elf::UsdtArg spec;
  // SymbolRelative/symbolic Memory: the link-time address of spec.symbol (0 when none). The
  // runtime address is symbol_address + load bias, where the load bias is the probe's runtime
  // ip (pt_regs ip at the hit) minus AttachPoint::address.
  uint64_t symbol_address = 0;
};

// One concrete, resolved attach point.
struct AttachPoint {
  ProbeKind kind = ProbeKind::Begin;
  std::string name;  // canonical, for the `probe` builtin: "uprobe:/tmp/fun:foo",
                     // "tracepoint:syscalls:sys_enter_read", "interval:ms:100", "BEGIN"
  std::string func;  // for the `func` builtin: "foo", "vfs_read"; empty where meaningless
  bool is_return = false;  // uretprobe, kretprobe

  // The architecture whose registers argN, retval and USDT arguments read: the kernel's
  // pt_regs layout with the target's register names (arch::for_process).
  const arch::Table* arch = nullptr;

  // uprobe, uretprobe, usdt, BEGIN/END (a uprobe on rawprobe itself)
  std::string path;             // the binary or library, absolute
  uint64_t address = 0;         // link-time virtual address of the instruction
  uint64_t file_offset = 0;     // what the kernel probes
  uint64_t ref_ctr_offset = 0;  // usdt: semaphore file offset, 0 for none
  pid_t pid = -1;               // -1: every process; else only this one (-p, -c, BEGIN/END)

  // usdt
  std::string usdt_provider, usdt_name;
  std::vector<UsdtArgument> usdt_args;

  // tracepoint; rawtracepoint (event only, category: the tracefs category it is listed in)
  std::string category, event;
  std::vector<lang::TracepointField> fields;

  // kprobe, kretprobe
  std::string module;       // empty for vmlinux
  uint64_t offset = 0;      // kprobe:FUNC+OFF
  uint32_t maxactive = 0;   // kretprobe: 0 = the kernel's default

  // fentry, fexit, iter: the BTF id BPF_PROG_LOAD attaches through (module: "vmlinux" or the
  // module whose split BTF has it); `fields` holds the context's argument slots
  uint32_t btf_id = 0;

  // watchpoint:FUNC+argN: the form's two points share watch_id (1, 2, ...): the uprobe on
  // FUNC (kind Uprobe, watch_arg N), whose program sends argN's value to user space, and the
  // watchpoint (kind Watchpoint, address 0), opened on that address when it comes
  // (Attachment::arm_watchpoint); asyncwatchpoint lets the process run on meanwhile
  uint32_t watch_id = 0;
  int watch_arg = -1;
  bool watch_async = false;  // asyncwatchpoint: the uprobe does not stop the process

  // interval, profile, software, hardware: the perf_event_attr fields
  uint32_t perf_type = 0;    // PERF_TYPE_SOFTWARE / PERF_TYPE_HARDWARE
  uint64_t perf_config = 0;  // PERF_COUNT_*
  uint64_t period = 0;       // sample_period, or sample_freq when `frequency`
  bool frequency = false;
  bool every_cpu = false;    // profile/software/hardware: one event per online CPU;
                             // interval: one event on one CPU
};

// What resolving needs beyond the spec.
struct ExpandContext {
  pid_t pid = -1;       // -p PID or the -c child: filters uprobes/usdt, resolves libraries
                        // through /proc/PID/maps, and is where USDT semaphores are written
                        // when the kernel cannot count them (no ref_ctr_offset)
  bool unsafe = false;  // --unsafe: allow uprobe offsets whose boundary cannot be checked
  uint32_t maxactive = 0;
  std::string executable;  // -c: the command's program (its PATH search done), for
                           // watchpoint:FUNC+argN, whose FUNC is in it
};

// How attach() may reach the kernel: --attach-mode.
enum class AttachMode { Auto, Pmu, Legacy };
Result<AttachMode> parse_attach_mode(std::string_view text);  // "auto" | "pmu" | "legacy"
const char* attach_mode_name(AttachMode mode);

struct AttachOptions {
  AttachMode mode = AttachMode::Auto;
  // A USDT point with a semaphore on a kernel without ref_ctr_offset: the process whose
  // /proc/PID/mem gets the semaphore incremented (and decremented when the handle dies).
  pid_t semaphore_pid = -1;
};

// How a block's program must be loaded so that attach() can use the path it will choose.
struct LoadPlan {
  ProgramType type = ProgramType::Kprobe;
  // BPF_TRACE_UPROBE_MULTI / BPF_TRACE_KPROBE_MULTI when attach() will use a multi link,
  // else 0. bpf(BPF_PROG_LOAD) must pass it as expected_attach_type.
  uint32_t expected_attach_type = 0;
  // bpf_get_attach_cookie() gives the point's index (perf links 5.15+, multi links). When
  // false and the block has several points, load one program per point instead and pass
  // them all to attach(): codegen then knows each program's point statically.
  bool cookies = false;
  // fentry, fexit, iter: the verifier checks a tracing program against one kernel function
  // (attach_btf_id), so each point gets its own program, loaded with these.
  bool per_point = false;
  uint32_t attach_btf_id = 0;
  std::string attach_btf_module;  // "vmlinux" or the module whose BTF object is attach_btf_obj_fd
};
LoadPlan load_plan(std::span<const AttachPoint> block_points, const AttachOptions& options);

// The kernel objects of one probe block; destroying it detaches them all.
class Attachment {
 public:
  virtual ~Attachment() = default;
  // How many kernel attachments (links/perf events) the handle holds, for "Attaching N
  // probes..." and tests.
  virtual size_t count() const = 0;
  // One line per mechanism used: "uprobe_multi link: 3 offsets in /tmp/fun".
  virtual std::string describe() const = 0;
  // Iterators (iter:NAME): reads each iterator fd to its end, which runs its program over
  // every object once. Returns how many iterators it ran (0 for other probe types).
  virtual Result<size_t> run_iterators() { return size_t{0}; }
  // Iterators pinned to bpffs (iter:NAME:PIN): their paths. They stay pinned once
  // run_iterators() has been called; a handle destroyed before that removes them.
  virtual std::vector<std::string> pinned_iterators() const { return {}; }
  // watchpoint:FUNC+argN: opens the watchpoint `watch_id` on `address` (once per address).
  // False when this handle holds no such watchpoint.
  virtual Result<bool> arm_watchpoint(uint32_t /*watch_id*/, uint64_t /*address*/) { return false; }
  // unwatch(address): closes the watchpoints on `address`; how many it closed.
  virtual size_t unwatch(uint64_t /*address*/) { return 0; }
};

// Resolves one spec of a probe block into its points (in a stable order: address order for
// functions, note order for USDT, name order for tracepoints). An empty match is an error
// that names what was searched and suggests close names.
Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec, const ExpandContext& ctx);

// Attaches the block's program(s) to every point. `prog_fds` holds one fd (point i gets
// cookie i) or, when load_plan().cookies is false, one fd per point. All points of a block
// share one ProbeKind family (lang's probe lists allow mixing; the caller groups by
// program_type and loads a program per group).
Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> block_points,
                                           std::span<const int> prog_fds,
                                           const AttachOptions& options);

// Where a provider writes its `-l` lines. A line is printed when it matches the listing's
// whole-line filter; verbose details are printed only after a line that was kept.
class ListSink {
 public:
  ListSink(FILE* out, bool verbose, std::string line_filter)
      : out_(out), verbose_(verbose), filter_(std::move(line_filter)) {}
  // Prints `text` (plus newline) if it passes the filter; returns whether it did.
  bool line(const std::string& text);
  // A verbose detail line under the last kept line ("    int __syscall_nr").
  void detail(const std::string& text);
  bool verbose() const { return verbose_; }
  size_t lines() const { return lines_; }

 private:
  FILE* out_;
  bool verbose_;
  std::string filter_;  // glob over the whole line; empty = every line
  size_t lines_ = 0;
};

// What a provider lists: the pattern's parts after "provider:", e.g. {"syscalls", "*read*"}
// for "tracepoint:syscalls:*read*"; empty when the pattern named only the provider or none.
struct ListRequest {
  std::string provider;             // as to be printed: "uprobe" or "uretprobe", ...
  std::vector<std::string> parts;
  pid_t pid = -1;                   // -p: usdt:* and uprobe over the process's objects
};

// What --explain honours: the options that change how a probe is attached, so it tells what a
// run with the same options does.
struct ExplainOptions {
  pid_t pid = -1;                        // -p PID
  AttachMode mode = AttachMode::Auto;    // --attach-mode
  uint32_t kretprobe_maxactive = 0;      // --kretprobe-maxactive
};

// One provider. Each lives in its own file; its row in probe_types.cpp names it.
class Provider {
 public:
  virtual ~Provider() = default;
  // The parts of the spec's text split at ':' outside quotes (parts[0] is the type as
  // written; out.kind is already set from it). An error's `what` says what to write instead.
  virtual Status parse(const std::vector<std::string>& parts, lang::ProbeSpec& out) const = 0;
  virtual Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                                  const ExpandContext& ctx) const = 0;
  // Every point has this provider's kind family; prog_fds as in attach() above.
  virtual Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points,
                                                     std::span<const int> prog_fds,
                                                     const AttachOptions& options) const = 0;
  // The provider's `-l` lines for the request.
  virtual Status list(const ListRequest& request, ListSink& sink) const = 0;
  // --explain: how the spec would be attached, step by step, without attaching it.
  virtual Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options,
                         FILE* out) const = 0;
  // Why this kernel has none of the probes `name` stands for (said instead of listing
  // them); empty when it has them.
  virtual std::string unavailable(std::string_view /*name*/) const { return ""; }
};
const Provider& provider_for(ProbeKind kind);

// Used by every provider's attach(): holds a list of owned kernel objects in the order they
// must be released (last added, first released).
class AttachmentSet final : public Attachment {
 public:
  struct Part {
    virtual ~Part() = default;
  };
  void add(std::unique_ptr<Part> part, size_t kernel_objects, std::string what);
  // A perf event with the program on it (and its bpf_link, and any tracefs event it needs).
  void add_perf(sys::PerfAttachment attachment, std::string what);
  // An fd whose closing detaches the program: a bpf link carrying `kernel_objects` points,
  // or a raw tracepoint.
  void add_fd(sys::Fd fd, size_t kernel_objects, std::string what);
  // An iterator's link and the fd whose reading runs it (run_iterators).
  void add_iterator(sys::Fd link, sys::Fd iter, std::string what);
  // An iterator link already pinned at `path`; reading that file runs it.
  void add_pinned_iterator(sys::Fd link, std::string path, std::string what);
  Result<size_t> run_iterators() override;
  std::vector<std::string> pinned_iterators() const override { return pinned_; }
  size_t count() const override { return count_; }
  std::string describe() const override;
  ~AttachmentSet() override;

 private:
  std::vector<std::unique_ptr<Part>> parts_;
  std::vector<std::string> lines_;
  std::vector<int> iterators_;  // fds owned by parts_
  std::vector<std::string> pinned_;
  bool keep_pins_ = false;  // set by run_iterators(): the run got that far
  size_t count_ = 0;
};

}  // namespace rawprobe::probes
