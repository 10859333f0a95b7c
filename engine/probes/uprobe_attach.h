// The attach path shared by every provider that plants a uprobe: uprobe, uretprobe, usdt,
// BEGIN and END. Ordered fallbacks (DESIGN.md practice 6):
//   uprobe_multi  one BPF_LINK_CREATE per binary for a block of several points (6.6), with
//                 cookies, semaphores (ref_ctr_offsets) and the pid filter in the link
//   pmu           one perf event per point through the uprobe PMU (4.17), ref_ctr_offset for
//                 semaphores (4.20)
//   legacy        one uprobe_events entry per point (rawprobe_<pid>_<n>), opened as a
//                 tracepoint; removed when the handle dies
// A semaphore the kernel cannot count (no ref_ctr_offset) is incremented in the traced
// process's memory instead (usdt_semaphore.h).
#pragma once
#include "engine/probes/provider.h"
#include "engine/probes/providers.h"

namespace rawprobe::probes {

Result<std::unique_ptr<Attachment>> attach_uprobes(std::span<const AttachPoint> points,
                                                   std::span<const int> prog_fds,
                                                   const AttachOptions& options);

// uprobe, uretprobe and usdt: a user binary's symbol or note, attached and explained alike.
class UserProbeProvider : public Provider {
 public:
  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points,
                                             std::span<const int> prog_fds,
                                             const AttachOptions& options) const override {
    return attach_uprobes(points, prog_fds, options);
  }
  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options,
                 FILE* out) const override {
    return explain_user_probe(spec, options, out);
  }
};

// The path attach_uprobes takes for a block served by one program (cookies tell its points
// apart); --explain prints the same choice.
enum class UprobeRoute { Multi, Pmu, Legacy };
UprobeRoute uprobe_route(std::span<const AttachPoint> points, const AttachOptions& options);

// True when `point` has a USDT semaphore and this kernel cannot count it (no ref_ctr_offset):
// it will be written in the traced process's memory, so that process must have mapped the
// binary before the attach (with -c: the command stopped at exec). The uprobe_multi link,
// where it is used, counts it anyway; this answers for the worst case.
bool semaphore_in_process_memory(const AttachPoint& point);

// The arch table a process built for `file` is traced with on this kernel; an error naming
// the binary when this kernel cannot run it.
Result<const arch::Table*> process_arch(uint16_t e_machine, uint8_t elf_class,
                                        const std::string& path);

}  // namespace rawprobe::probes
