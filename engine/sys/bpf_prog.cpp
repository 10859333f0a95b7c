#include "engine/sys/bpf_prog.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "engine/sys/bpf_call.h"
#include "engine/sys/errors.h"

namespace rawprobe::sys {

using detail::ptr_to_u64;

namespace {

// How much of a long verifier log an Error keeps: the end is where the verifier says what
// it rejected, so the tail is kept.
constexpr size_t kLogLinesKept = 200;

struct LoadAttempt {
  BpfCall call;
  Outcome outcome;
};

void fill_attr(union bpf_attr& attr, const ProgSpec& spec) {
  std::memset(&attr, 0, sizeof attr);
  attr.prog_type = spec.type;
  attr.insn_cnt = static_cast<uint32_t>(spec.insns.size());
  attr.insns = ptr_to_u64(spec.insns.data());
  attr.license = ptr_to_u64(spec.license.c_str());
  attr.prog_flags = spec.flags;
  attr.expected_attach_type = spec.expected_attach_type;
  if (!spec.func_info.empty()) {
    static_assert(sizeof(FuncInfo) == sizeof(struct bpf_func_info));
    attr.prog_btf_fd = static_cast<uint32_t>(spec.btf_fd);
    attr.func_info_rec_size = sizeof(FuncInfo);
    attr.func_info = ptr_to_u64(spec.func_info.data());
    attr.func_info_cnt = static_cast<uint32_t>(spec.func_info.size());
  }
  attr.attach_btf_id = spec.attach_btf_id;
  if (spec.attach_btf_obj_fd >= 0) attr.attach_btf_obj_fd = static_cast<uint32_t>(spec.attach_btf_obj_fd);
  // The kernel accepts only alphanumerics, '_' and '.' in object names (bpf_obj_name_cpy).
  for (size_t i = 0; i < spec.name.size() && i + 1 < sizeof attr.prog_name; ++i) {
    char ch = spec.name[i];
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '.';
    attr.prog_name[i] = ok ? ch : '_';
  }
}

// Sized to the last field used: older kernels refuse fields they do not know unless they are
// zero (a 4.17 kernel knows no func_info, 4.20, nor attach_btf_id, 5.5), and every kernel
// that takes a field takes the ones before it.
uint32_t prog_load_size(const ProgSpec& spec) {
  if (spec.attach_btf_id) return RAWPROBE_BPF_ATTR_END(attach_btf_obj_fd);
  if (!spec.func_info.empty()) return RAWPROBE_BPF_ATTR_END(func_info_cnt);
  return RAWPROBE_BPF_ATTR_END(expected_attach_type);
}

// One load at `log_level` into `buffer` (empty buffer: no log).
LoadAttempt load_once(const ProgSpec& spec, uint32_t log_level, std::vector<char>& buffer) {
  union bpf_attr attr;
  fill_attr(attr, spec);
  if (!buffer.empty()) {
    buffer[0] = '\0';
    attr.log_level = log_level;
    attr.log_size = static_cast<uint32_t>(buffer.size());
    attr.log_buf = ptr_to_u64(buffer.data());
  }
  BpfCall call{BPF_PROG_LOAD, &attr, prog_load_size(spec)};
  Outcome out = invoke(call);
  call.attr = nullptr;  // the attr dies here; keep only what the caller needs
  return {call, out};
}

// Loads with a log, growing the buffer on ENOSPC (the log did not fit) up to the cap.
LoadAttempt load_with_log(const ProgSpec& spec, uint32_t log_level, std::string& log) {
  std::vector<char> buffer(kVerifierLogStart);
  LoadAttempt attempt = load_once(spec, log_level, buffer);
  while (!attempt.outcome.ok() && attempt.outcome.err == ENOSPC && buffer.size() < kVerifierLogCap) {
    buffer.assign(std::min(buffer.size() * 4, kVerifierLogCap), '\0');
    attempt = load_once(spec, log_level, buffer);
  }
  log.assign(buffer.data(), ::strnlen(buffer.data(), buffer.size()));
  if (!attempt.outcome.ok() && attempt.outcome.err == ENOSPC)
    log += "\n(verifier log truncated at " + std::to_string(kVerifierLogCap >> 20) + " MiB)";
  return attempt;
}

// The part of a log an Error keeps.
std::string log_excerpt(const std::string& log) {
  size_t lines = std::count(log.begin(), log.end(), '\n');
  std::string body = log;
  while (!body.empty() && body.back() == '\n') body.pop_back();
  if (lines <= kLogLinesKept) return "verifier log:\n" + body;
  size_t pos = body.size();
  for (size_t kept = 0; kept < kLogLinesKept && pos != std::string::npos; ++kept)
    pos = pos == 0 ? std::string::npos : body.rfind('\n', pos - 1);
  std::string tail = pos == std::string::npos ? body : body.substr(pos + 1);
  return "verifier log (last " + std::to_string(kLogLinesKept) + " of " + std::to_string(lines) +
         " lines):\n" + tail;
}

Error load_error(const LoadAttempt& failed, const ProgSpec& spec, const std::string& log) {
  Error e = call_error("load program", failed.call, failed.outcome,
                       spec.name.empty() ? "(unnamed)" : spec.name);
  if (!log.empty()) e.detail = log_excerpt(log);
  return e;
}

// Repeating the load cannot produce a log for these: the verifier never ran.
bool verifier_ran(int err) { return err != EPERM && err != ENOMEM && err != EMFILE && err != EFAULT; }

}  // namespace

Result<Fd> prog_load(const ProgSpec& spec) {
  std::vector<char> no_log;
  LoadAttempt first = load_once(spec, 0, no_log);
  if (first.outcome.ok()) return Fd(static_cast<int>(first.outcome.ret));
  std::string log;
  if (verifier_ran(first.outcome.err)) {
    LoadAttempt logged = load_with_log(spec, 1, log);
    // Accepted on the second try (e.g. a transient ENOMEM): use it.
    if (logged.outcome.ok()) return Fd(static_cast<int>(logged.outcome.ret));
  }
  return load_error(first, spec, log);
}

Result<Fd> prog_load_logged(const ProgSpec& spec, uint32_t log_level, std::string& log) {
  LoadAttempt attempt = load_with_log(spec, log_level, log);
  if (attempt.outcome.ok()) return Fd(static_cast<int>(attempt.outcome.ret));
  return load_error(attempt, spec, log);
}

Result<TestRunResult> prog_test_run(int prog_fd, const TestRunSpec& spec) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.test.prog_fd = prog_fd;
  attr.test.data_size_in = static_cast<uint32_t>(spec.data_in.size());
  attr.test.data_in = ptr_to_u64(spec.data_in.data());
  attr.test.data_size_out = static_cast<uint32_t>(spec.data_out.size());
  attr.test.data_out = ptr_to_u64(spec.data_out.data());
  attr.test.ctx_size_in = static_cast<uint32_t>(spec.ctx_in.size());
  attr.test.ctx_in = ptr_to_u64(spec.ctx_in.data());
  attr.test.repeat = spec.repeat;
  attr.test.flags = spec.flags;
  Status st = detail::bpf_status(BPF_PROG_TEST_RUN, &attr, RAWPROBE_BPF_ATTR_END(test.flags),
                                 "test-run program", "prog fd " + std::to_string(prog_fd));
  if (!st) return st.error();
  return TestRunResult{attr.test.retval, attr.test.duration, attr.test.data_size_out};
}

}  // namespace rawprobe::sys
