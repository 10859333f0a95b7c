#include "engine/lang/probe_spec.h"

#include <vector>

#include "engine/lang/suggest.h"

namespace rawprobe::lang {
namespace {

struct ProviderName {
  const char* name;
  const char* alias;  // bpftrace 0.17's short form; nullptr when it has none
  ProbeKind kind;
};
// Names and aliases checked against bpftrace 0.17 (`bpftrace -d -e 'u:/bin/true:main {}'`...).
constexpr ProviderName kProviders[] = {
    {"BEGIN", nullptr, ProbeKind::Begin},          {"END", nullptr, ProbeKind::End},
    {"uprobe", "u", ProbeKind::Uprobe},            {"uretprobe", "ur", ProbeKind::Uretprobe},
    {"usdt", "U", ProbeKind::Usdt},                {"tracepoint", "t", ProbeKind::Tracepoint},
    {"interval", "i", ProbeKind::Interval},        {"profile", "p", ProbeKind::Profile},
    {"software", "s", ProbeKind::Software},        {"hardware", "h", ProbeKind::Hardware},
    {"kprobe", "k", ProbeKind::Kprobe},            {"kretprobe", "kr", ProbeKind::Kretprobe},
    {"rawtracepoint", "rt", ProbeKind::RawTracepoint},
};
// Probe types bpftrace has that rawprobe does not implement: named, so the error is precise.
constexpr const char* kUnsupported[] = {"kfunc", "f", "kretfunc", "fr", "watchpoint", "w",
                                        "asyncwatchpoint", "aw", "iter", "it"};

// perf's software and hardware event names with bpftrace's aliases (perf_event_open(2)).
const std::vector<std::string> kSoftwareEvents = {
    "alignment-faults", "bpf-output", "context-switches", "cs", "cpu-clock", "cpu",
    "cpu-migrations", "dummy", "emulation-faults", "major-faults", "minor-faults",
    "page-faults", "faults", "task-clock"};
const std::vector<std::string> kHardwareEvents = {
    "backend-stalls", "branch-instructions", "branches", "branch-misses", "bus-cycles",
    "cache-misses", "cache-references", "cpu-cycles", "cycles", "frontend-stalls",
    "instructions", "ref-cycles"};

// Splits on ':' outside double quotes.
std::vector<std::string> split_parts(std::string_view s) {
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') quoted = !quoted;
    if (c == ':' && !quoted) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  return parts;
}

bool parse_uint(std::string_view s, uint64_t& out) {
  if (s.empty()) return false;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  uint64_t v = 0;
  for (char c : s) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else if (c == '_') continue;
    else return false;
    if (v > (UINT64_MAX - d) / base) return false;
    v = v * base + d;
  }
  out = v;
  return true;
}

bool has_wildcard(std::string_view s) { return s.find_first_of("*?") != std::string_view::npos; }

std::string join(const std::vector<std::string>& parts, size_t from) {
  std::string s;
  for (size_t i = from; i < parts.size(); ++i) s += (i > from ? ":" : "") + parts[i];
  return s;
}

// FUNC, FUNC+OFF or "QUOTED NAME" into out.func / out.offset.
bool parse_function(const std::string& text, ProbeSpec& out, std::string& error) {
  std::string f = text;
  if (f.size() >= 2 && f.front() == '"' && f.back() == '"') {
    out.func = f.substr(1, f.size() - 2);
    out.quoted = true;
    return true;
  }
  size_t plus = f.rfind('+');
  if (plus != std::string::npos) {
    if (!parse_uint(f.substr(plus + 1), out.offset)) {
      error = "invalid offset '" + f.substr(plus + 1) + "' in '" + f + "': write FUNC+N with a decimal or 0x number";
      return false;
    }
    out.has_offset = true;
    f.resize(plus);
  }
  if (f.empty()) {
    error = "missing function name";
    return false;
  }
  out.func = f;
  out.wildcard = out.wildcard || has_wildcard(f);
  return true;
}

bool parse_user(const std::vector<std::string>& p, ProbeSpec& out, std::string& error) {
  const char* kind = probe_kind_name(out.kind);
  if (p.size() < 3 || p[1].empty()) {
    error = std::string(kind) + " needs a binary and a function: " + kind + ":BINARY:FUNCTION (e.g. " + kind + ":/bin/bash:readline)";
    return false;
  }
  out.target = p[1];
  out.wildcard = has_wildcard(out.target);
  std::string rest = join(p, 2);
  uint64_t addr;
  if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X') && parse_uint(rest, addr)) {
    out.address = addr;
    out.has_address = true;
    return true;
  }
  if (!parse_function(rest, out, error)) return false;
  if (out.kind == ProbeKind::Uretprobe && out.has_offset) {
    error = "uretprobe cannot take an offset: a return probe fires at the function's return";
    return false;
  }
  return true;
}

bool parse_usdt(const std::vector<std::string>& p, ProbeSpec& out, std::string& error) {
  if (p.size() < 3 || p.size() > 4 || p[1].empty() || p.back().empty()) {
    error = "usdt needs usdt:BINARY:PROVIDER:NAME or usdt:BINARY:NAME";
    return false;
  }
  out.target = p[1];
  out.provider = p.size() == 4 ? p[2] : "";
  out.name = p.back();
  out.wildcard = has_wildcard(out.target) || has_wildcard(out.provider) || has_wildcard(out.name);
  return true;
}

bool parse_tracepoint(const std::vector<std::string>& p, ProbeSpec& out, std::string& error) {
  if (p.size() != 3 || p[1].empty() || p[2].empty()) {
    error = "tracepoint needs tracepoint:CATEGORY:NAME (e.g. tracepoint:syscalls:sys_enter_read)";
    return false;
  }
  out.provider = p[1];
  out.name = p[2];
  out.wildcard = has_wildcard(out.provider) || has_wildcard(out.name);
  return true;
}

// rawtracepoint:NAME: the kernel finds a raw tracepoint by its name alone (bpf(2)
// BPF_RAW_TRACEPOINT_OPEN), so there is no category part.
bool parse_raw_tracepoint(const std::vector<std::string>& p, ProbeSpec& out, std::string& error) {
  if (p.size() != 2 || p[1].empty()) {
    error = "rawtracepoint needs rawtracepoint:NAME, with no category (e.g. rawtracepoint:sched_switch; "
            "list them with -l 'rawtracepoint:*')";
    return false;
  }
  out.name = p[1];
  out.wildcard = has_wildcard(out.name);
  return true;
}

bool parse_timer(const std::vector<std::string>& p, ProbeSpec& out, std::string& error) {
  const char* kind = probe_kind_name(out.kind);
  if (p.size() != 3) {
    // bpftrace 0.17 says "interval probe type requires 2 arguments".
    error = std::string(kind) + " probe type requires 2 arguments: " + kind + ":UNIT:N with UNIT one of s, ms, us, hz";
    return false;
  }
  const std::string& unit = p[1];
  if (unit != "s" && unit != "ms" && unit != "us" && unit != "hz") {
    error = "invalid " + std::string(kind) + " unit '" + unit + "'" +
            did_you_mean(unit, {"s", "ms", "us", "hz"}) + " (use s, ms, us or hz)";
    return false;
  }
  out.unit = unit;
  if (!parse_uint(p[2], out.value) || out.value == 0) {
    error = "invalid " + std::string(kind) + " count '" + p[2] + "': write a positive integer";
    return false;
  }
  out.has_value = true;
  return true;
}

bool parse_perf_event(const std::vector<std::string>& p, ProbeSpec& out, std::string& error) {
  const char* kind = probe_kind_name(out.kind);
  const auto& events = out.kind == ProbeKind::Software ? kSoftwareEvents : kHardwareEvents;
  if (p.size() < 2 || p.size() > 3 || p[1].empty()) {
    error = std::string(kind) + " needs " + kind + ":EVENT[:COUNT]";
    return false;
  }
  bool known = false;
  for (const std::string& e : events) known = known || e == p[1];
  if (!known) {
    error = "unknown " + std::string(kind) + " event '" + p[1] + "'" + did_you_mean(p[1], events);
    return false;
  }
  out.event = p[1];
  if (p.size() == 3) {
    if (!parse_uint(p[2], out.value) || out.value == 0) {
      error = "invalid " + std::string(kind) + " count '" + p[2] + "': write a positive integer";
      return false;
    }
    out.has_value = true;
  }
  return true;
}

bool parse_kernel(const std::vector<std::string>& p, ProbeSpec& out, std::string& error) {
  const char* kind = probe_kind_name(out.kind);
  if (p.size() < 2 || p.size() > 3 || p.back().empty()) {
    error = std::string(kind) + " needs " + kind + ":FUNCTION or " + kind + ":MODULE:FUNCTION";
    return false;
  }
  if (p.size() == 3) {
    // A module name never holds '/': a path means a user binary, i.e. a uprobe.
    if (p[1].find('/') != std::string::npos) {
      error = std::string(kind) + " module '" + p[1] + "' looks like a file path; probe user binaries with " +
              (out.kind == ProbeKind::Kprobe ? "uprobe" : "uretprobe");
      return false;
    }
    out.target = p[1];
  }
  if (!parse_function(p.back(), out, error)) return false;
  if (out.kind == ProbeKind::Kretprobe && out.has_offset) {
    error = "kretprobe cannot take an offset";
    return false;
  }
  return true;
}

bool parse_args(const std::vector<std::string>& parts, ProbeSpec& out, std::string& error) {
  switch (out.kind) {
    case ProbeKind::Begin:
    case ProbeKind::End:
      if (parts.size() != 1) {
        error = std::string(probe_kind_name(out.kind)) + " takes no arguments";
        return false;
      }
      return true;
    case ProbeKind::Uprobe:
    case ProbeKind::Uretprobe: return parse_user(parts, out, error);
    case ProbeKind::Usdt: return parse_usdt(parts, out, error);
    case ProbeKind::Tracepoint: return parse_tracepoint(parts, out, error);
    case ProbeKind::RawTracepoint: return parse_raw_tracepoint(parts, out, error);
    case ProbeKind::Interval:
    case ProbeKind::Profile: return parse_timer(parts, out, error);
    case ProbeKind::Software:
    case ProbeKind::Hardware: return parse_perf_event(parts, out, error);
    case ProbeKind::Kprobe:
    case ProbeKind::Kretprobe: return parse_kernel(parts, out, error);
  }
  return false;
}

}  // namespace

const char* probe_kind_name(ProbeKind kind) {
  for (const ProviderName& p : kProviders)
    if (p.kind == kind) return p.name;
  return "?";
}

bool probe_kind_is_return(ProbeKind kind) {
  return kind == ProbeKind::Uretprobe || kind == ProbeKind::Kretprobe;
}

std::string ProbeSpec::canonical() const {
  size_t colon = raw.find(':');
  if (colon == std::string::npos) return probe_kind_name(kind);
  return probe_kind_name(kind) + raw.substr(colon);
}

bool parse_probe_spec(std::string_view raw, Span span, ProbeSpec& out, std::string& error) {
  out = ProbeSpec{};
  out.raw = std::string(raw);
  out.span = span;
  std::vector<std::string> parts = split_parts(raw);
  const std::string& type = parts[0];
  for (const ProviderName& p : kProviders) {
    if (type == p.name || (p.alias && type == p.alias)) {
      out.kind = p.kind;
      return parse_args(parts, out, error);
    }
  }
  for (const char* u : kUnsupported) {
    if (type == u) {
      error = "probe type '" + type + "' is not supported by rawprobe";
      return false;
    }
  }
  if (type.empty()) {
    error = "missing probe type before ':' in '" + std::string(raw) + "'";
    return false;
  }
  // Closest names first; among equally close ones, prefer those whose arguments parse, so
  // `probe:/tmp/x:f` suggests uprobe (a path) and not kprobe.
  std::vector<std::string> names;
  for (const ProviderName& p : kProviders) names.push_back(p.name);
  std::vector<std::string> close = closest_names(type, names);
  std::vector<std::string> fitting;
  for (const std::string& name : close) {
    ProbeSpec trial;
    std::string ignored;
    std::vector<std::string> trial_parts = parts;
    trial_parts[0] = name;
    for (const ProviderName& p : kProviders)
      if (name == p.name) trial.kind = p.kind;
    if (parse_args(trial_parts, trial, ignored)) fitting.push_back(name);
  }
  error = "unknown probe type '" + type + "'" + did_you_mean(type, fitting.empty() ? close : fitting);
  return false;
}

}  // namespace rawprobe::lang
