#include "engine/lang/probe_spec.h"

#include <vector>

#include "engine/lang/suggest.h"
#include "engine/probes/probe_types.h"
#include "engine/probes/provider.h"

namespace rawprobe::lang {

std::vector<std::string> split_probe_parts(std::string_view s) {
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (char c : s) {
    if (c == '"') quoted = !quoted;
    if (c == ':' && !quoted) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  return parts;
}

bool parse_probe_number(std::string_view s, uint64_t& out) {
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

std::string join_probe_parts(const std::vector<std::string>& parts, size_t from) {
  std::string s;
  for (size_t i = from; i < parts.size(); ++i) s += (i > from ? ":" : "") + parts[i];
  return s;
}

Status parse_probe_function(const std::string& text, ProbeSpec& out) {
  std::string f = text;
  if (f.size() >= 2 && f.front() == '"' && f.back() == '"') {
    out.func = f.substr(1, f.size() - 2);
    out.quoted = true;
    return {};
  }
  size_t plus = f.rfind('+');
  if (plus != std::string::npos) {
    if (!parse_probe_number(f.substr(plus + 1), out.offset)) {
      return make_error("invalid offset '" + f.substr(plus + 1) + "' in '" + f + "': write FUNC+N with a decimal or 0x number");
    }
    out.has_offset = true;
    f.resize(plus);
  }
  if (f.empty()) {
    return make_error("missing function name");
  }
  out.func = f;
  out.wildcard = out.wildcard || has_wildcard(f);
  return {};
}

const char* probe_kind_name(ProbeKind kind) { return probes::probe_type(kind).name; }

bool probe_kind_is_return(ProbeKind kind) { return probes::probe_type(kind).context.retval; }

std::string ProbeSpec::canonical() const {
  size_t colon = raw.find(':');
  if (colon == std::string::npos) return probe_kind_name(kind);
  return probe_kind_name(kind) + raw.substr(colon);
}

namespace {

Status parse_as(const probes::ProbeType& type, const std::vector<std::string>& parts, ProbeSpec& out) {
  out.kind = type.kind;
  return type.provider().parse(parts, out);
}

}  // namespace

Status parse_probe_spec(std::string_view raw, Span span, ProbeSpec& out) {
  out = ProbeSpec{};
  out.raw = std::string(raw);
  out.span = span;
  std::vector<std::string> parts = split_probe_parts(raw);
  const std::string& type = parts[0];
  if (const probes::ProbeType* t = probes::find_probe_type(type)) return parse_as(*t, parts, out);
  for (const char* u : probes::unsupported_probe_types()) {
    if (type == u) {
      return make_error("probe type '" + type + "' is not supported by rawprobe");
    }
  }
  if (type.empty()) {
    return make_error("missing probe type before ':' in '" + std::string(raw) + "'");
  }
  // Closest names first; among equally close ones, prefer those whose arguments parse, so
  // `probe:/tmp/x:f` suggests uprobe (a path) and not kprobe.
  std::vector<std::string> names;
  for (const probes::ProbeType& t : probes::probe_types()) names.push_back(t.name);
  std::vector<std::string> close = closest_names(type, names);
  std::vector<std::string> fitting;
  for (const std::string& name : close) {
    ProbeSpec trial;
    std::vector<std::string> trial_parts = parts;
    trial_parts[0] = name;
    if (parse_as(*probes::find_probe_type(name), trial_parts, trial)) fitting.push_back(name);
  }
  return make_error("unknown probe type '" + type + "'" + did_you_mean(type, fitting.empty() ? close : fitting));
}

}  // namespace rawprobe::lang
