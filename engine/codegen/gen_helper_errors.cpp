// -k and -kk, bpftrace 0.17's helper error checks: after a helper call whose failure the
// script would otherwise never hear of, the program tests the result and, when the call
// failed, sends user space the call's site and the result:
//
//   call bpf_map_delete_elem#3
//   if r0 s>= 0 goto helper_ok          (a lookup: if r0 != 0 goto helper_ok)
//   *(u64 *)(r10 -24) = kAsyncHelperError
//   *(u64 *)(r10 -16) = site            index into CompiledScript::helper_errors
//   *(u64 *)(r10 -8) = r0               the result (0 for a lookup)
//   bpf_ringbuf_output / bpf_perf_event_output of those 24 bytes
//   r0 = *(u64 *)(r10 -8)               what the call's consumer reads is unchanged
// helper_ok:
//
// Which calls, as bpftrace 0.17 chooses them (its generated code, read with --emit-llvm):
//   -k    map_update_elem, map_delete_elem, get_stackid, get_current_comm, send_signal,
//         override_return and trace_printk: r0 < 0 (a negative errno); send_signal_thread
//         too, which 0.17 lacks, like its sibling send_signal
//   -kk   also the probe reads (probe_read, probe_read_kernel, probe_read_user and their
//         _str forms): r0 < 0; and map_lookup_elem of a script map: r0 == 0, a missing key
// Not checked: helpers whose result is a value (pid, nsecs, ...), the event outputs (a refused
// record is counted in `.lost` and reported as "Lost N events"), and rawprobe's own internal
// maps, whose lookups of key 0 cannot miss and whose updates may fail by design.
// The test is 64-bit where bpftrace's is on the low 32 bits: the same for every helper above,
// whose successes are small (0, a length, a stack id) and errors sign-extended.
// Without -k nothing here emits an instruction, and with it the rest of the program is
// unchanged: tests/kernel/cli_helper_errors_test.cpp takes the checks out of a -kk program and
// finds the program generated without -k.
#include "engine/codegen/gen.h"

namespace rawprobe::codegen {

using bpf::Helper;

namespace {

enum class HelperCheck { None, Negative, Null };

HelperCheck helper_check(Helper h, uint32_t level) {
  switch (h) {
    case Helper::map_update_elem:
    case Helper::map_delete_elem:
    case Helper::get_stackid:
    case Helper::get_current_comm:
    case Helper::send_signal:
    case Helper::send_signal_thread:
    case Helper::override_return:
    case Helper::trace_printk: return level >= 1 ? HelperCheck::Negative : HelperCheck::None;
    case Helper::probe_read:
    case Helper::probe_read_str:
    case Helper::probe_read_kernel:
    case Helper::probe_read_kernel_str:
    case Helper::probe_read_user:
    case Helper::probe_read_user_str: return level >= 2 ? HelperCheck::Negative : HelperCheck::None;
    case Helper::map_lookup_elem: return level >= 2 ? HelperCheck::Null : HelperCheck::None;
    default: return HelperCheck::None;
  }
}

constexpr uint32_t kRecordSize = 24;

}  // namespace

// The warning's place in bpftrace's form: "file:line:begin-end", then the line and '~' under
// the span (up to the end of its first line).
uint64_t ScriptState::helper_error_site(Helper h, lang::Span span) {
  HelperErrorSite site;
  std::string_view name = bpf::helper_name(static_cast<int32_t>(h));
  site.helper = std::string(name.substr(name.rfind("bpf_", 0) == 0 ? 4 : 0));
  if (const lang::SourceFile* src = options_.source) {
    lang::Location loc = src->locate(span);
    site.where = std::string(loc.file) + ":" + std::to_string(loc.at.line) + ":" + std::to_string(loc.at.col) + "-" +
                 std::to_string(loc.at.col + loc.width);
    site.context = std::string(loc.line) + "\n";
    // Tabs before the span are kept, so the marks line up whatever the tab width.
    for (uint32_t i = 0; i + 1 < loc.at.col && i < loc.line.size(); ++i) site.context += loc.line[i] == '\t' ? '\t' : ' ';
    site.context += std::string(loc.width, '~') + "\n";
  } else {
    site.where = options_.source_name;
  }
  // A program generated twice (for its context register, or once per attach point) reuses
  // the sites it made before.
  std::vector<HelperErrorSite>& sites = out_.helper_errors;
  for (size_t i = 0; i < sites.size(); ++i)
    if (sites[i].helper == site.helper && sites[i].where == site.where && sites[i].context == site.context) return i;
  sites.push_back(std::move(site));
  return sites.size() - 1;
}

void ProgramGen::check_helper(Helper h, lang::Span span) {
  HelperCheck check = helper_check(h, script_.options().helper_checks);
  if (check == HelperCheck::None) return;
  uint64_t site = script_.helper_error_site(h, span);
  bpf::Label ok = b_.new_label("helper_ok");
  if (check == HelperCheck::Null) b_.jump(bpf::Cond::Ne, bpf::R0, 0, ok);
  else b_.jump(bpf::Cond::SGe, bpf::R0, 0, ok);
  // The record is dead once sent: its slot is given back, so the code after the check sits
  // where it would without -k.
  uint32_t mark = frame_.mark();
  Place rec{frame_.alloc(kRecordSize), {}};
  auto at = [&](int32_t off) { return static_cast<int16_t>(rec.off + off); };
  b_.store_imm(bpf::Size::DW, bpf::R10, at(0), static_cast<int32_t>(kAsyncHelperError));
  b_.store_imm(bpf::Size::DW, bpf::R10, at(8), static_cast<int32_t>(site));
  if (check == HelperCheck::Null) b_.store_imm(bpf::Size::DW, bpf::R10, at(16), 0);
  else b_.store(bpf::Size::DW, bpf::R10, at(16), bpf::R0);
  output_event(rec, kRecordSize);
  if (check == HelperCheck::Null) b_.mov(bpf::R0, 0);
  else b_.load(bpf::Size::DW, bpf::R0, bpf::R10, at(16));
  frame_.release_to(mark);
  regs_.frame_released(mark);
  b_.bind(ok);
}

}  // namespace rawprobe::codegen
