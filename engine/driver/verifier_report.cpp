#include "engine/driver/verifier_report.h"

#include <cctype>
#include <vector>

#include "bpfasm/print.h"

namespace rawprobe::driver {
namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty()) lines.push_back(line);
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

bool is_statistics(std::string_view line) {
  return line.starts_with("processed ") || line.starts_with("verification time") ||
         line.starts_with("stack depth") || line.starts_with("max_states_per_insn");
}

}  // namespace

std::string relevant_log_tail(std::string_view log, size_t max_lines) {
  std::vector<std::string_view> lines = lines_of(log);
  while (!lines.empty() && is_statistics(lines.back())) lines.pop_back();
  size_t from = lines.size() > max_lines ? lines.size() - max_lines : 0;
  std::string out;
  for (size_t i = from; i < lines.size(); ++i) out += "  " + std::string(lines[i]) + "\n";
  return out;
}

std::optional<size_t> rejected_slot(std::string_view log) {
  std::vector<std::string_view> lines = lines_of(log);
  for (size_t i = lines.size(); i-- > 0;) {
    std::string_view line = lines[i];
    size_t digits = 0;
    while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
    if (digits == 0 || line.substr(digits, 3) != ": (") continue;
    return size_t(std::stoul(std::string(line.substr(0, digits))));
  }
  return std::nullopt;
}

std::string instruction_at_slot(const bpf::Program& program, size_t slot) {
  size_t at = 0;
  for (size_t i = 0; i < program.insns.size(); ++i) {
    if (at == slot) {
      std::string out;
      for (const bpf::Annotation& a : program.annotations)
        if (a.index <= i) out = "  ; " + a.text + "\n";
      bpf::ListingOptions listing;
      return out + "  " + bpf::listing_prefix(slot, program.insns[i].code, listing) +
             bpf::print(program.insns[i]) + "\n";
    }
    at += program.insns[i].width();
    if (at > slot) break;
  }
  return {};
}

Error verifier_report(const Error& err, const std::string& probe_description,
                      const bpf::Program& program) {
  Error report = make_error("the kernel's verifier rejected the program of " + probe_description +
                            (err.err ? " (" + errno_name(err.err) + ")" : ""));
  if (err.detail.empty()) {
    report.detail = "  " + err.message();
    return report;
  }
  std::string out = "verifier log (last lines):\n" + relevant_log_tail(err.detail);
  if (std::optional<size_t> slot = rejected_slot(err.detail)) {
    std::string insn = instruction_at_slot(program, *slot);
    if (!insn.empty()) out += "the instruction it points at:\n" + insn;
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();  // report() ends the line
  report.detail = std::move(out);
  // bpf_d_path's own gate (kernel/trace/bpf_trace.c bpf_d_path_allowed), said in general words.
  if (err.detail.find("d_path#") != std::string::npos &&
      err.detail.find("helper call is not allowed in probe") != std::string::npos)
    report.hint = "path() (bpf_d_path) runs only in iterators and in fentry/fexit of the functions the kernel "
                  "lists in btf_allowlist_d_path: security_file_open, security_file_permission, "
                  "security_inode_getattr, security_path_truncate, vfs_truncate, vfs_fallocate, dentry_open, "
                  "vfs_getattr, filp_close (Linux 6.12); e.g. fentry:security_file_open { path(args.file->f_path) }";
  // The kernel's fixup_call_args: a program its JIT did not compile runs in the interpreter,
  // which takes no callback (bpf_loop, bpf_for_each_map_elem).
  if (err.detail.find("callbacks are not allowed in non-JITed programs") != std::string::npos)
    report.hint = "this kernel runs the program in its interpreter, which allows no callbacks: rawprobe compiles "
                  "`for` loops and len(@map) into them. Where the JIT is off (net.core.bpf_jit_enable 0), turn "
                  "it on: sysctl net.core.bpf_jit_enable=1; 32-bit arm's JIT compiles no bpf-to-bpf calls "
                  "either, so there write the loop as `while`";
  return report;
}

}  // namespace rawprobe::driver
