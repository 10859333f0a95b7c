// watchpoint:ADDR:LEN:MODE (alias w): a hardware breakpoint on a data address of one process
// (-p PID or -c CMD), through perf_event_open(PERF_TYPE_BREAKPOINT) with bp_addr, bp_len and
// bp_type, sample_period 1, so the block's perf_event program runs on every access, as
// bpftrace 0.17 does. MODE is r, w, x or a combination of r and w.
//
// watchpoint:FUNC+argN:LEN:MODE watches the address FUNC's argument N holds when FUNC (a
// function of the traced program) is entered, as bpftrace 0.17 does it: a uprobe on FUNC
// (a point of its own, whose program codegen makes: gen_watchpoint.cpp) stops the process
// (bpf_send_signal(SIGSTOP)) and sends the address to user space; the driver opens the
// breakpoint there (arm_watchpoint below), once per address, then sends SIGCONT, so not one
// access after the call is missed. Which address comes is only known then: its alignment is
// checked at that moment, the rest up front. asyncwatchpoint:FUNC+argN (aw) does the same without
// stopping the process, as bpftrace's does: faster, but the accesses made before the breakpoint
// is open are not seen.
//
// What the kernel would refuse is refused first, with the reason (kernel/events/hw_breakpoint.c,
// arch/x86/kernel/hw_breakpoint.c): LEN is 1, 2, 4 or 8; ADDR is a multiple of LEN; an
// execute breakpoint watches one instruction address with LEN the size of a long; x does not
// combine with r or w. The number of debug registers (4 on x86) is the kernel's ENOSPC, said
// with that hint.
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <elf.h>

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <regex>
#include <set>

#include "engine/probes/providers.h"
#include "engine/sys/attach.h"
#include "engine/sys/perf.h"

namespace rawprobe::probes {
namespace {

constexpr const char* kForm =
    "watchpoint:ADDR:LEN:MODE or watchpoint:FUNC+argN:LEN:MODE, e.g. watchpoint:0x4c6f30:8:w, watchpoint:increment+arg1:4:w";

Result<uint32_t> parse_mode(const std::string& mode) {
  uint32_t bits = 0;
  for (char c : mode) {
    uint32_t bit = c == 'r' ? HW_BREAKPOINT_R : c == 'w' ? HW_BREAKPOINT_W : c == 'x' ? HW_BREAKPOINT_X : 0;
    if (!bit || (bits & bit))
      return make_error("watchpoint mode '" + mode + "' is not one of r, w, x, rw", kForm);
    bits |= bit;
  }
  if (!bits) return make_error("watchpoint needs a mode: r, w, x or rw", kForm);
  if ((bits & HW_BREAKPOINT_X) && bits != HW_BREAKPOINT_X)
    return make_error("watchpoint mode '" + mode + "' mixes x with r or w: an execute breakpoint watches an "
                      "instruction, a data breakpoint reads or writes; use two probes", kForm);
  return bits;
}

// FUNC+argN: the function in out.func, N in out.offset.
Status parse_function_argument(const std::string& text, lang::ProbeSpec& out) {
  static const std::regex form(R"(([A-Za-z_][A-Za-z0-9_.]*)\+arg([0-9]+))");
  std::smatch m;
  if (!std::regex_match(text, m, form))
    return make_error("watchpoint address '" + text + "' is neither a number nor FUNC+argN", kForm);
  out.func = m[1];
  uint64_t n = 0;
  size_t regs = arch::host().arg_regs.size();
  if (!lang::parse_probe_number(m[2].str(), n) || n >= regs)
    return make_error("watchpoint:" + text + ": arg" + m[2].str() + " is not a register argument of " +
                      std::string(arch::host().name) + " (arg0..arg" + std::to_string(regs - 1) + ")");
  out.offset = n;
  return {};
}

// Why the kernel refused a breakpoint of `length` bytes with EINVAL, for this host's CPU.
std::string breakpoint_einval_hint(uint64_t length) {
  const arch::Table& host = arch::host();
  // 32-bit arm's debug unit watches 8 bytes only where the kernel found it can (it writes an
  // 8-byte byte-address-select mask and reads it back); a long there is 4 bytes.
  if (host.e_machine == EM_ARM && length == 8)
    return "this CPU's debug unit watches at most 4 bytes (arm32: a long or a pointer is 4 bytes): watch 1, 2 or 4";
  // arch/arm/kernel/hw_breakpoint.c: a perf watchpoint (the default overflow handler) must be
  // stepped over with a mismatch breakpoint, which not every ARMv7 debug unit has (qemu's
  // cortex-a15 does not).
  if (host.e_machine == EM_ARM)
    return "32-bit arm's kernel sets a watchpoint only where the CPU's debug unit has mismatch breakpoints, to "
           "step over the access it stops (arch/arm/kernel/hw_breakpoint.c); this CPU's has none";
  if (host.e_machine == EM_X86_64 || host.e_machine == EM_386)
    return "this CPU cannot watch that combination (x86 cannot watch reads alone: use rw)";
  return "this CPU cannot watch that combination of length and access";
}

// The watchpoint's perf event on `address` in the point's process.
Result<sys::PerfAttachment> open_breakpoint(const AttachPoint& p, uint64_t address, int prog_fd, uint64_t cookie) {
  perf_event_attr attr{};
  attr.type = PERF_TYPE_BREAKPOINT;
  attr.bp_type = static_cast<uint32_t>(p.perf_config);
  attr.bp_addr = address;
  attr.bp_len = p.offset;
  attr.sample_period = 1;
  attr.disabled = 1;
  Result<sys::Fd> fd = sys::perf_event_open(attr, p.pid, -1, -1, p.name);
  if (!fd) {
    Error e = fd.error();
    if (e.err == ENOSPC)
      e.hint = "every debug register is in use (x86 has 4, shared by all breakpoints of the task and "
               "debuggers); watch fewer addresses";
    else if (e.err == EINVAL)
      e.hint = breakpoint_einval_hint(p.offset);
    else if (e.err == ENOENT || e.err == EOPNOTSUPP)
      e.hint = "this kernel has no breakpoint PMU (CONFIG_HAVE_HW_BREAKPOINT)";
    return e;
  }
  return sys::attach_perf_event(std::move(*fd), prog_fd, cookie);
}

std::string describe_breakpoint(const AttachPoint& p, const sys::PerfAttachment& a) {
  return "hardware breakpoint (perf_event_open PERF_TYPE_BREAKPOINT, " + std::string(sys::attach_mode_name(a.mode())) +
         ") in pid " + std::to_string(p.pid) + ": " + p.name;
}

// The breakpoints of a block, each with the address it watches: ADDR points are opened at
// once, FUNC+argN points when their address comes (arm_watchpoint), and unwatch(ADDR) closes
// those on ADDR (a later call of FUNC with that address watches it again, as in bpftrace).
class Watchpoints final : public Attachment {
 public:
  Watchpoints(std::vector<AttachPoint> points, std::vector<int> fds, bool cookies)
      : points_(std::move(points)), fds_(std::move(fds)), cookies_(cookies) {}

  // Opens point i's breakpoint on `address`.
  Status open(size_t i, uint64_t address) {
    const AttachPoint& p = points_[i];
    Result<sys::PerfAttachment> a = open_breakpoint(p, address, fds_[i], cookies_ ? i : 0);
    if (!a) return a.error();
    std::string text = describe_breakpoint(p, *a);
    if (p.watch_id) text += " at " + hex(address);
    armed_.push_back({p.watch_id, address, std::move(*a), std::move(text)});
    return {};
  }

  size_t count() const override { return armed_.size(); }
  std::string describe() const override {
    std::string text;
    for (const Armed& a : armed_) text += a.text + "\n";
    for (const AttachPoint& p : points_)
      if (p.watch_id) text += "watchpoint waiting for " + p.func + "'s arg" + std::to_string(p.watch_arg) + ": " + p.name + "\n";
    return text;
  }

  Result<bool> arm_watchpoint(uint32_t watch_id, uint64_t address) override {
    for (size_t i = 0; i < points_.size(); ++i) {
      const AttachPoint& p = points_[i];
      if (!p.watch_id || p.watch_id != watch_id) continue;
      for (const Armed& a : armed_)
        if (a.watch_id == watch_id && a.address == address) return true;  // the same call again
      // One that could not be armed is reported once, not at every call.
      if (!refused_.insert({watch_id, address}).second) return true;
      if (address % p.offset)
        return make_error("watchpoint on arg" + std::to_string(p.watch_arg) + " of " + p.func + ": " + hex(address) +
                              " is not a multiple of " + std::to_string(p.offset) + ": not watched",
                          "", "debug registers watch aligned ranges; watch a length that divides the address");
      if (Status opened = open(i, address); !opened) {
        Error e = opened.error();
        e.what = "watchpoint on arg" + std::to_string(p.watch_arg) + " of " + p.func + ": watching " + hex(address) +
                 ": " + e.what;
        return e;
      }
      refused_.erase({watch_id, address});
      return true;
    }
    return false;
  }

  size_t unwatch(uint64_t address) override {
    std::vector<Armed> kept;  // Armed moves but does not assign: no erase_if
    for (Armed& a : armed_)
      if (a.address != address) kept.push_back(std::move(a));
    size_t closed = armed_.size() - kept.size();
    armed_ = std::move(kept);  // the breakpoints left behind close here
    return closed;
  }

 private:
  static std::string hex(uint64_t address) {
    char at[32];
    std::snprintf(at, sizeof at, "0x%llx", static_cast<unsigned long long>(address));
    return at;
  }
  struct Armed {
    uint32_t watch_id;  // 0: an ADDR point
    uint64_t address;
    sys::PerfAttachment attachment;  // closing it removes the breakpoint
    std::string text;
  };
  std::vector<AttachPoint> points_;
  std::vector<int> fds_;
  bool cookies_;
  std::vector<Armed> armed_;
  std::set<std::pair<uint32_t, uint64_t>> refused_;
};

// asyncwatchpoint/aw, as written (the registry gives it the watchpoint row).
bool written_async(const lang::ProbeSpec& spec) {
  return spec.raw.rfind("asyncwatchpoint:", 0) == 0 || spec.raw.rfind("aw:", 0) == 0;
}

// The two points of watchpoint:FUNC+argN: the uprobe on FUNC in the traced program (the -c
// command, or /proc/PID/exe's target) and the watchpoint `wp` waiting for its address.
Result<std::vector<AttachPoint>> on_function_entry(const lang::ProbeSpec& spec, const ExpandContext& ctx,
                                                   AttachPoint wp) {
  std::string binary = ctx.executable;
  if (binary.empty()) {
    char target[PATH_MAX];
    std::string link = "/proc/" + std::to_string(ctx.pid) + "/exe";
    ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
    if (n <= 0) return syscall_error("find the program of process " + std::to_string(ctx.pid), "readlink", errno, link);
    binary.assign(target, static_cast<size_t>(n));
  }
  // The `probe` builtin says it as bpftrace 0.17 does: watchpoint:BINARY:FUNC:N:LEN:MODE, the
  // binary as -c gave it.
  wp.name = std::string(written_async(spec) ? "asyncwatchpoint:" : "watchpoint:") + binary + ":" + spec.func + ":" +
            std::to_string(spec.offset) + ":" + std::to_string(spec.value) + ":" + spec.event;
  if (char* real = ::realpath(binary.c_str(), nullptr)) {  // -c ./prog: the uprobe wants it absolute
    binary = real;
    std::free(real);
  }
  lang::ProbeSpec u;
  u.kind = ProbeKind::Uprobe;
  u.span = spec.span;
  u.raw = "uprobe:" + binary + ":" + spec.func;
  u.target = binary;
  u.func = spec.func;
  Result<std::vector<AttachPoint>> entry = expand(u, ctx);
  if (!entry) {
    Error e = entry.error();
    e.what = spec.raw + ": " + e.what;
    return e;
  }
  static std::atomic<uint32_t> next_id{1};
  uint32_t id = next_id++;
  std::vector<AttachPoint> out;
  for (AttachPoint& p : *entry) {
    p.name = wp.name;
    p.watch_id = id;
    p.watch_arg = static_cast<int>(spec.offset);
    p.watch_async = written_async(spec);
    out.push_back(std::move(p));
  }
  wp.watch_id = id;
  wp.watch_arg = static_cast<int>(spec.offset);
  wp.func = spec.func;
  out.push_back(std::move(wp));
  return out;
}

class WatchpointProvider final : public Provider {
 public:
  Status parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const override {
    if (p.size() != 4) return make_error(std::string("watchpoint needs ") + kForm);
    if (lang::parse_probe_number(p[1], out.address)) {
      out.has_address = true;
    } else if (Status s = parse_function_argument(p[1], out); !s) {
      return s;
    }
    if (!lang::parse_probe_number(p[2], out.value))
      return make_error("watchpoint length '" + p[2] + "' is not a number: 1, 2, 4 or 8");
    out.has_value = true;
    out.event = p[3];
    if (out.value != 1 && out.value != 2 && out.value != 4 && out.value != 8)
      return make_error("watchpoint length " + p[2] + " is not one the hardware watches: 1, 2, 4 or 8 bytes");
    if (out.has_address && out.address % out.value)
      return make_error("watchpoint address " + p[1] + " is not a multiple of its length " + p[2] +
                        ": debug registers watch aligned ranges; watch the aligned word that holds it");
    Result<uint32_t> bits = parse_mode(out.event);
    if (!bits) return bits.error();
    if (*bits == HW_BREAKPOINT_X && out.value != sizeof(long))
      return make_error("an execute watchpoint (x) takes length " + std::to_string(sizeof(long)) +
                        " (the kernel's rule for instruction breakpoints), not " + p[2]);
    return {};
  }

  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec, const ExpandContext& ctx) const override {
    if (ctx.pid <= 0)
      return make_error("watchpoint needs a process: run with -p PID or -c CMD", spec.raw,
                        "a data breakpoint watches an address of one process's memory");
    AttachPoint p;
    p.kind = ProbeKind::Watchpoint;
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(spec.address));
    std::string where = spec.has_address ? std::string(addr) : spec.func + "+arg" + std::to_string(spec.offset);
    p.name = std::string(written_async(spec) ? "asyncwatchpoint:" : "watchpoint:") + where + ":" + std::to_string(spec.value) + ":" + spec.event;
    p.arch = &arch::host();
    p.pid = ctx.pid;
    p.address = spec.address;
    p.perf_type = PERF_TYPE_BREAKPOINT;
    p.perf_config = *parse_mode(spec.event);
    p.offset = spec.value;  // the length
    if (spec.has_address) return std::vector<AttachPoint>{std::move(p)};
    return on_function_entry(spec, ctx, std::move(p));
  }

  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points, std::span<const int> prog_fds,
                                             const AttachOptions&) const override {
    Result<std::vector<int>> fds = fds_per_point(points, prog_fds);
    if (!fds) return fds.error();
    // One program for several points tells them apart by cookie, the point's index here.
    bool cookies = prog_fds.size() == 1 && points.size() > 1;
    bool waits = false, now = false;
    for (const AttachPoint& p : points) (p.watch_id ? waits : now) = true;
    if (cookies && waits && now)
      return make_error("attach watchpoints", points.front().name,
                        "a block mixing watchpoint:ADDR and watchpoint:FUNC+argN needs a program per point; write "
                        "them as two blocks");
    auto set = std::make_unique<Watchpoints>(std::vector<AttachPoint>(points.begin(), points.end()), std::move(*fds),
                                             cookies);
    for (size_t i = 0; i < points.size(); ++i)
      if (!points[i].watch_id)
        if (Status opened = set->open(i, points[i].address); !opened) return opened.error();
    return std::unique_ptr<Attachment>(std::move(set));
  }

  Status list(const ListRequest&, ListSink&) const override { return {}; }

  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out) const override {
    if (options.pid <= 0)
      return make_error("watchpoint needs a process: --explain it with -p PID", spec.raw);
    return explain_points(spec, options, out, [&](const AttachPoint& p, std::span<const AttachPoint>) -> Status {
      if (p.kind == ProbeKind::Uprobe) {
        std::fprintf(out,
                     "attach: a uprobe on %s in %s (file offset 0x%llx), whose program reads arg%d, %s and sends "
                     "the address to rawprobe\n",
                     p.func.c_str(), p.path.c_str(), static_cast<unsigned long long>(p.file_offset), p.watch_arg,
                     p.watch_async ? "lets the process run on (asyncwatchpoint)"
                                   : "stops the process (bpf_send_signal(SIGSTOP))");
        return {};
      }
      if (p.watch_id) {
        std::fprintf(out,
                     "then: perf_event_open(type PERF_TYPE_BREAKPOINT, bp_addr <that address>, bp_len %llu, bp_type "
                     "%llu, sample_period 1) on pid %d, once per address%s\n",
                     static_cast<unsigned long long>(p.offset), static_cast<unsigned long long>(p.perf_config), p.pid,
                     p.name.rfind("async", 0) == 0 ? "" : ", and SIGCONT to the process");
        return {};
      }
      std::fprintf(out,
                   "attach: perf_event_open(type PERF_TYPE_BREAKPOINT, bp_addr 0x%llx, bp_len %llu, bp_type %llu, "
                   "sample_period 1) on pid %d, any CPU; the program runs at every %s\n",
                   static_cast<unsigned long long>(p.address), static_cast<unsigned long long>(p.offset),
                   static_cast<unsigned long long>(p.perf_config), p.pid,
                   p.perf_config == HW_BREAKPOINT_X ? "execution of that instruction" : "matching access");
      return {};
    });
  }
};

}  // namespace

const Provider& watchpoint_provider() { return the_provider<WatchpointProvider>(); }

}  // namespace rawprobe::probes
