// watchpoint:ADDR:LEN:MODE (alias w): a hardware breakpoint on a data address of one process
// (-p PID or -c CMD), through perf_event_open(PERF_TYPE_BREAKPOINT) with bp_addr, bp_len and
// bp_type, sample_period 1, so the block's perf_event program runs on every access, as
// bpftrace 0.17 does. MODE is r, w, x or a combination of r and w.
//
// What the kernel would refuse is refused first, with the reason (kernel/events/hw_breakpoint.c,
// arch/x86/kernel/hw_breakpoint.c): LEN is 1, 2, 4 or 8; ADDR is a multiple of LEN; an
// execute breakpoint watches one instruction address with LEN the size of a long; x does not
// combine with r or w. The number of debug registers (4 on x86) is the kernel's ENOSPC, said
// with that hint.
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include <cerrno>

#include "engine/probes/providers.h"
#include "engine/sys/attach.h"
#include "engine/sys/perf.h"

namespace rawprobe::probes {
namespace {

constexpr const char* kForm = "watchpoint:ADDR:LEN:MODE, e.g. watchpoint:0x4c6f30:8:w";

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

class WatchpointProvider final : public Provider {
 public:
  Status parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const override {
    if (p.size() != 4) return make_error(std::string("watchpoint needs ") + kForm);
    if (!lang::parse_probe_number(p[1], out.address))
      return make_error("watchpoint address '" + p[1] + "' is not a number (watchpoint:FUNC+ARGN is not supported; "
                        "give the address, e.g. from the program's symbol table)");
    out.has_address = true;
    if (!lang::parse_probe_number(p[2], out.value))
      return make_error("watchpoint length '" + p[2] + "' is not a number: 1, 2, 4 or 8");
    out.has_value = true;
    out.event = p[3];
    if (out.value != 1 && out.value != 2 && out.value != 4 && out.value != 8)
      return make_error("watchpoint length " + p[2] + " is not one the hardware watches: 1, 2, 4 or 8 bytes");
    if (out.address % out.value)
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
    p.name = std::string("watchpoint:") + addr + ":" + std::to_string(spec.value) + ":" + spec.event;
    p.arch = &arch::host();
    p.pid = ctx.pid;
    p.address = spec.address;
    p.perf_type = PERF_TYPE_BREAKPOINT;
    p.perf_config = *parse_mode(spec.event);
    p.offset = spec.value;  // the length
    return std::vector<AttachPoint>{std::move(p)};
  }

  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points, std::span<const int> prog_fds,
                                             const AttachOptions&) const override {
    return attach_each(points, prog_fds, [](const AttachPoint& p, int prog_fd, uint64_t cookie, AttachmentSet& set) -> Status {
      perf_event_attr attr{};
      attr.type = PERF_TYPE_BREAKPOINT;
      attr.bp_type = static_cast<uint32_t>(p.perf_config);
      attr.bp_addr = p.address;
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
          e.hint = "this CPU cannot watch that combination (x86 cannot watch reads alone: use rw)";
        else if (e.err == ENOENT || e.err == EOPNOTSUPP)
          e.hint = "this kernel has no breakpoint PMU (CONFIG_HAVE_HW_BREAKPOINT)";
        return e;
      }
      Result<sys::PerfAttachment> a = sys::attach_perf_event(std::move(*fd), prog_fd, cookie);
      if (!a) return a.error();
      set.add_perf(std::move(*a), "hardware breakpoint (perf_event_open PERF_TYPE_BREAKPOINT, " +
                                      std::string(sys::attach_mode_name(a->mode())) + ") in pid " +
                                      std::to_string(p.pid) + ": " + p.name);
      return {};
    });
  }

  Status list(const ListRequest&, ListSink&) const override { return {}; }

  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out) const override {
    if (options.pid <= 0)
      return make_error("watchpoint needs a process: --explain it with -p PID", spec.raw);
    return explain_points(spec, options, out, [&](const AttachPoint& p, std::span<const AttachPoint>) -> Status {
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
