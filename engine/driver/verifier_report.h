// What the user sees when the kernel's verifier rejects a generated program: the
// probe, the log's last relevant lines, and the generated instruction the log points at
// with the source line it came from:
//
//   rawprobe: the kernel's verifier rejected the program of uprobe:/tmp/fun:foo (x.bt:1)
//   verifier log (last lines):
//     12: (79) r1 = *(u64 *)(r2 +0)
//     R2 invalid mem access 'scalar'
//   the instruction it points at:
//     ; x.bt:1: @x = *arg0
//     12: (79) r1 = *(u64 *)(r2 +0)
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "bpfasm/program.h"
#include "engine/base/result.h"

namespace rawprobe::driver {

// The last lines of a verifier log that explain a rejection: without the trailing
// statistics ("processed N insns ...", "verification time ..."), at most `max_lines`.
std::string relevant_log_tail(std::string_view log, size_t max_lines = 10);
// The slot index of the last instruction the log shows ("12: (79) ..."), if any.
std::optional<size_t> rejected_slot(std::string_view log);
// The listing of the instruction at `slot` with its source annotation, or "" when the slot
// is not in the program.
std::string instruction_at_slot(const bpf::Program& program, size_t slot);

// The rejection as an Error for the driver to print (bpf(BPF_PROG_LOAD) failed; err.detail
// holds the log): `what` names the probe, `detail` holds the report's lines.
Error verifier_report(const Error& err, const std::string& probe_description,
                      const bpf::Program& program);

}  // namespace rawprobe::driver
