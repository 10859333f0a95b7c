// `-l [PATTERN]` / `-lv`: the pattern's first part picks providers (a name, bpftrace's alias,
// or a glob over names), the rest goes to each provider's list(). A pattern without ':' is a
// glob over whole lines of every provider that needs no binary ("kprobe*", "*sys_enter_read");
// without any wildcard it matches anywhere in the line ("sys_enter_read").
#include "engine/probes/listing.h"

#include <algorithm>
#include <optional>

#include "elf/symbol_match.h"
#include "engine/lang/suggest.h"
#include "engine/probes/providers.h"

namespace rawprobe::probes {
namespace {

struct Listed {
  const char* name;
  const char* alias;
  const Provider& (*provider)();
  bool needs_binary;  // uprobe, uretprobe, usdt: listed only for a binary or -p PID
};

// In the order lines are printed.
const Listed kListed[] = {
    {"BEGIN", nullptr, begin_end_provider, false},
    {"END", nullptr, begin_end_provider, false},
    {"hardware", "h", hardware_provider, false},
    {"interval", "i", interval_provider, false},
    {"kprobe", "k", kprobe_provider, false},
    {"kretprobe", "kr", kprobe_provider, false},
    {"profile", "p", profile_provider, false},
    {"rawtracepoint", "rt", rawtracepoint_provider, false},
    {"software", "s", software_provider, false},
    {"tracepoint", "t", tracepoint_provider, false},
    {"uprobe", "u", uprobe_provider, true},
    {"uretprobe", "ur", uprobe_provider, true},
    {"usdt", "U", usdt_provider, true},
};

// Splits at ':' outside double quotes (C++ names: uprobe:/bin/x:"ns::f(int)").
std::vector<std::string> split_pattern(const std::string& pattern) {
  std::vector<std::string> parts(1);
  bool quoted = false;
  for (char c : pattern) {
    if (c == '"') quoted = !quoted;
    if (c == ':' && !quoted) {
      parts.emplace_back();
      continue;
    }
    parts.back() += c;
  }
  return parts;
}

bool has_wildcard(const std::string& s) { return s.find_first_of("*?") != std::string::npos; }

// Whole lines start with the provider's name (then ':'); a filter whose text before its first
// wildcard cannot start such a line skips the provider, so `-l 'kprobe*'` reads no tracefs
// and works where tracefs is not mounted (kprobes then come from /proc/kallsyms).
bool may_match(const std::string& filter, const std::string& provider) {
  std::string line_start = provider + ":";
  std::string literal = filter.substr(0, filter.find_first_of("*?"));
  size_t n = std::min(literal.size(), line_start.size());
  return literal.compare(0, n, line_start, 0, n) == 0;
}

Status list_one(const Listed& l, std::vector<std::string> parts, const ListOptions& options,
                ListSink& sink) {
  // A kernel without kprobes has nothing to list; say so when kprobes were asked for by name.
  if ((std::string(l.name) == "kprobe" || std::string(l.name) == "kretprobe") && !kprobes_available()) {
    std::fprintf(stderr, "note: this kernel has no kprobes (built without CONFIG_KPROBES): no %s "
                         "probes to list; tracepoints cover many subsystems: -l 'tracepoint:*'\n",
                 l.name);
    return {};
  }
  ListRequest request;
  request.provider = l.name;
  request.parts = std::move(parts);
  request.pid = options.pid;
  return l.provider().list(request, sink);
}

}  // namespace

Status list_probes(const ListOptions& options, FILE* out) {
  const std::string& pattern = options.pattern;
  std::vector<std::string> parts = split_pattern(pattern);
  if (pattern.empty() || parts.size() == 1 || has_wildcard(parts[0])) {
    // Whole-line matching over every provider that needs no binary (and, with -p, usdt).
    std::string filter = pattern;
    if (!filter.empty() && !has_wildcard(filter)) filter = "*" + filter + "*";
    ListSink sink(out, options.verbose, filter);
    // One provider that cannot list (tracepoints with tracefs unmounted) does not hide the
    // others' lines; the first failure is reported after them, naming what is missing.
    std::optional<Error> first_failure;
    auto keep_failure = [&](Status st, const Listed& l) {
      if (st || first_failure) return;
      first_failure = st.error();
      first_failure->what = "no " + std::string(l.name) + " probes listed: " + first_failure->what;
    };
    for (const Listed& l : kListed) {
      bool asked = parts.size() == 1 && pattern == l.name;  // "-l kprobe", "-l usdt"
      // "-l uprobe" alone reaches the provider, which says that a binary is needed.
      if (l.needs_binary && !asked && !(options.pid > 0 && std::string(l.name) == "usdt")) continue;
      if (!asked && std::string(l.name) == "kretprobe") continue;  // the same set as kprobe
      if (!asked && !may_match(filter, l.name)) continue;
      if (std::string(l.name).find("kprobe") != std::string::npos && !kprobes_available()) {
        if (asked || (!pattern.empty() && elf::glob_match(filter, l.name))) keep_failure(list_one(l, {}, options, sink), l);
        continue;
      }
      keep_failure(list_one(l, {}, options, sink), l);
    }
    if (first_failure) return *first_failure;
    return {};
  }
  std::vector<std::string> rest(parts.begin() + 1, parts.end());
  if (rest.size() == 1 && rest[0].empty()) rest.clear();  // "usdt:" / "tracepoint:"
  for (const Listed& l : kListed) {
    if (parts[0] != l.name && !(l.alias && parts[0] == l.alias)) continue;
    ListSink sink(out, options.verbose, "");
    return list_one(l, rest, options, sink);
  }
  std::vector<std::string> names;
  for (const Listed& l : kListed) names.push_back(l.name);
  return make_error("unknown probe type '" + parts[0] + "'", pattern,
                    lang::did_you_mean(parts[0], names).empty()
                        ? "probe types: BEGIN, END, hardware, interval, kprobe, kretprobe, "
                          "profile, rawtracepoint, software, tracepoint, uprobe, uretprobe, usdt"
                        : lang::did_you_mean(parts[0], names).substr(2));
}

int run_list(const ListOptions& options, FILE* out) {
  Status st = list_probes(options, out);
  if (st) return 0;
  std::fprintf(stderr, "rawprobe: %s\n", st.error().message().c_str());
  return 1;
}

}  // namespace rawprobe::probes
