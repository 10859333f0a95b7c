// BEGIN/END/self/test/bench: a uprobe on rawprobe_trigger_begin/end/sigusr1/test/bench in
// this very executable, for this pid only. The file offset is computed from the function's
// runtime address and the mapping that holds it (/proc/self/maps), so it works in a stripped
// or static binary too.
#include "engine/probes/begin_end.h"

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <sstream>

#include "elf/hex.h"
#include "engine/probes/providers.h"
#include "engine/probes/uprobe_attach.h"
#include "engine/sys/host_root.h"

// 32-bit arm: the kernel's uprobes decode ARM-state instructions only (arch/arm/probes/uprobes
// refuses an address that is not 4-byte aligned: Thumb is not supported), while Debian's armhf
// compiler emits Thumb-2, so the triggers are compiled as ARM code. Without this BEGIN failed
// there with perf_event_open EINVAL at the Thumb function's odd address.
#if defined(__arm__) && defined(__thumb__)
#define RAWPROBE_TRIGGER_ISA __attribute__((target("arm")))
#else
#define RAWPROBE_TRIGGER_ISA
#endif

// noinline + the empty asm keep a real, separate call the uprobe can sit on; `used` keeps the
// symbol in a static link.
extern "C" __attribute__((noinline, used)) RAWPROBE_TRIGGER_ISA void rawprobe_trigger_begin() {
  asm volatile("" ::: "memory");
}
extern "C" __attribute__((noinline, used)) RAWPROBE_TRIGGER_ISA void rawprobe_trigger_end() {
  asm volatile("" ::: "memory");
}
extern "C" __attribute__((noinline, used)) RAWPROBE_TRIGGER_ISA void rawprobe_trigger_sigusr1() {
  asm volatile("" ::: "memory");
}
extern "C" __attribute__((noinline, used)) RAWPROBE_TRIGGER_ISA void rawprobe_trigger_test() {
  asm volatile("" ::: "memory");
}
extern "C" __attribute__((noinline, used)) RAWPROBE_TRIGGER_ISA void rawprobe_trigger_bench() {
  asm volatile("" ::: "memory");
}

namespace rawprobe::probes {
namespace {

struct Location {
  std::string path;
  uint64_t file_offset = 0;
};

// Our own maps, not host_path's: the trigger lives in this process whatever root tests set.
Result<Location> locate(uint64_t address) {
  std::string text;
  if (!sys::read_text_file("/proc/self/maps", text))
    return make_error("read /proc/self/maps to place BEGIN/END", "/proc/self/maps",
                      "rawprobe needs /proc mounted");
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    uint64_t start, end, pgoff;
    int name_at = 0;
    if (std::sscanf(line.c_str(), "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %n", &start, &end,
                    &pgoff, &name_at) < 3 || name_at <= 0)
      continue;
    if (address < start || address >= end) continue;
    Location loc{line.substr(name_at), address - start + pgoff};
    if (loc.path.empty() || loc.path[0] != '/')
      return make_error("the BEGIN/END trigger is not in a file mapping", loc.path);
    return loc;
  }
  return make_error("the BEGIN/END trigger function is not mapped", "/proc/self/maps");
}

class BeginEndProvider final : public Provider {
 public:
  // self:TRIGGER:EVENT has one trigger and one event so far, as in bpftrace 0.26.1, whose
  // words the refusals use.
  Status parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const override {
    if (out.kind == ProbeKind::Test || out.kind == ProbeKind::Bench) {
      // test:NAME / bench:NAME: the name is what the report prints.
      const char* kind = lang::probe_kind_name(out.kind);
      if (p.size() != 2 || p[1].empty())
        return make_error(std::string(kind) + " probe type requires 1 argument, found " +
                              std::to_string(p.size() - 1),
                          "", std::string("name it: ") + kind + ":NAME");
      out.name = p[1];
      return {};
    }
    if (out.kind != ProbeKind::Self) {
      if (p.size() == 1) return {};
      return make_error(std::string(lang::probe_kind_name(out.kind)) + " takes no arguments");
    }
    if (p.size() != 3)
      return make_error("self probe type requires 2 arguments, found " + std::to_string(p.size() - 1), "",
                        "self:signal:SIGUSR1 is the one self probe");
    if (p[1] != "signal") return make_error(p[1] + " is not a supported trigger", "", "the trigger is signal");
    if (p[2] != "SIGUSR1") return make_error(p[2] + " is not a supported signal", "", "the signal is SIGUSR1");
    out.name = p[2];
    return {};
  }

  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext&) const override {
    // An address, not a function pointer: g++ gives an ARM-state function (see above) a type
    // of its own on a Thumb build.
    auto address_of = [](auto* function) { return reinterpret_cast<uintptr_t>(function); };
    uintptr_t trigger = spec.kind == ProbeKind::Begin  ? address_of(rawprobe_trigger_begin)
                        : spec.kind == ProbeKind::End  ? address_of(rawprobe_trigger_end)
                        : spec.kind == ProbeKind::Test ? address_of(rawprobe_trigger_test)
                        : spec.kind == ProbeKind::Bench ? address_of(rawprobe_trigger_bench)
                                                        : address_of(rawprobe_trigger_sigusr1);
    Result<Location> loc = locate(trigger);
    if (!loc) return loc.error();
    AttachPoint p;
    p.kind = spec.kind;
    p.name = spec.kind == ProbeKind::Self                                     ? "self:signal:SIGUSR1"
             : spec.kind == ProbeKind::Test || spec.kind == ProbeKind::Bench ? spec.canonical()
                                                                              : lang::probe_kind_name(spec.kind);
    p.arch = &arch::host();
    p.path = loc->path;
    p.file_offset = loc->file_offset;
    p.address = loc->file_offset;
    p.pid = ::getpid();
    return std::vector<AttachPoint>{p};
  }

  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points,
                                             std::span<const int> prog_fds,
                                             const AttachOptions& options) const override {
    return attach_uprobes(points, prog_fds, options);
  }

  Status list(const ListRequest& request, ListSink& sink) const override {
    if (request.provider == "self") sink.line("self:signal:SIGUSR1");
    else if (request.parts.empty()) sink.line(request.provider);
    return {};
  }

  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out) const override {
    return explain_points(spec, options, out, [&](const AttachPoint& p, std::span<const AttachPoint>) -> Status {
      std::fprintf(out, "a uprobe on rawprobe's own trigger function: %s file offset %s, pid %d "
                        "only; the runtime calls it %s\n",
                   p.path.c_str(), elf::hex(p.file_offset).c_str(), p.pid,
                   p.kind == ProbeKind::Begin   ? "once every probe is attached"
                   : p.kind == ProbeKind::End   ? "when the run ends"
                   : p.kind == ProbeKind::Test  ? "once, under --test (the block is left out otherwise)"
                   : p.kind == ProbeKind::Bench ? "repeatedly, under --bench (the block is left out otherwise)"
                                                : "each time rawprobe receives SIGUSR1");
      return {};
    });
  }
};

}  // namespace

const Provider& begin_end_provider() { return the_provider<BeginEndProvider>(); }

}  // namespace rawprobe::probes
