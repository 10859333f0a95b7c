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

// In the order lines are printed: by name, so BEGIN and END (upper case) come first.
std::vector<const ProbeType*> listed_types() {
  std::vector<const ProbeType*> types;
  for (const ProbeType& t : probe_types()) types.push_back(&t);
  std::sort(types.begin(), types.end(),
            [](const ProbeType* a, const ProbeType* b) { return std::string_view(a->name) < b->name; });
  return types;
}

// Whole lines start with the provider's name (then ':'); a filter whose text before its first
// wildcard cannot start such a line skips the provider, so `-l 'kprobe*'` reads no tracefs
// and works where tracefs is not mounted (kprobes then come from /proc/kallsyms).
bool may_match(const std::string& filter, const std::string& provider) {
  std::string line_start = provider + ":";
  std::string literal = filter.substr(0, filter.find_first_of("*?"));
  size_t n = std::min(literal.size(), line_start.size());
  return literal.compare(0, n, line_start, 0, n) == 0;
}

// What one listing printed: its lines, and whether a provider said instead that this kernel
// lacks it (a note is an answer; an empty listing without one is not).
struct Listed {
  size_t lines = 0;
  bool noted_unavailable = false;
};

Status list_one(const ProbeType& t, std::vector<std::string> parts, const ListOptions& options,
                ListSink& sink, Listed& listed) {
  // A kernel without kprobes has nothing to list; say so when they were asked for by name.
  if (std::string why = t.provider().unavailable(t.name); !why.empty()) {
    std::fprintf(stderr, "note: %s\n", why.c_str());
    listed.noted_unavailable = true;
    return {};
  }
  ListRequest request;
  request.provider = t.name;
  request.parts = std::move(parts);
  request.pid = options.pid;
  size_t before = sink.lines();
  Status st = t.provider().list(request, sink);
  listed.lines += sink.lines() - before;
  return st;
}

// `*:BIN:*`, `u*:BIN:f*`: a wildcard over provider names, then a binary. Whole-line matching
// cannot serve these (a provider over a binary lists nothing without one), so each provider
// that lists a binary's probes and whose name matches is asked for BIN with the rest.
Status list_over_binary(const std::vector<std::string>& parts, const ListOptions& options,
                        FILE* out, Listed& listed) {
  std::vector<std::string> rest(parts.begin() + 1, parts.end());
  ListSink sink(out, options.verbose, "");
  for (const ProbeType* t : listed_types()) {
    if (!t->list_needs_binary || !t->list_in_all || !elf::glob_match(parts[0], t->name)) continue;
    if (Status st = list_one(*t, rest, options, sink, listed); !st) return st;
  }
  return {};
}

Status list_matching(const ListOptions& options, FILE* out, Listed& listed) {
  const std::string& pattern = options.pattern;
  std::vector<std::string> parts = lang::split_probe_parts(pattern);
  bool by_process = options.pid > 0 && pattern.empty();  // `-l -p PID`: that process's probes
  if (parts.size() >= 2 && lang::has_wildcard(parts[0]) && !lang::has_wildcard(parts[1]) &&
      !parts[1].empty())
    return list_over_binary(parts, options, out, listed);
  if (pattern.empty() || parts.size() == 1 || lang::has_wildcard(parts[0])) {
    // Whole-line matching over every provider that needs no binary (and, with -p, the
    // providers over the process's objects).
    std::string filter = pattern;
    if (!filter.empty() && !lang::has_wildcard(filter)) filter = "*" + filter + "*";
    ListSink sink(out, options.verbose, filter);
    // One provider that cannot list (tracepoints with tracefs unmounted) does not hide the
    // others' lines; the first failure is reported after them, naming what is missing.
    std::optional<Error> first_failure;
    auto keep_failure = [&](Status st, const ProbeType& t) {
      if (st || first_failure) return;
      first_failure = st.error();
      first_failure->what = "no " + std::string(t.name) + " probes listed: " + first_failure->what;
    };
    for (const ProbeType* t : listed_types()) {
      bool asked = parts.size() == 1 && pattern == t->name;  // "-l kprobe", "-l usdt"
      bool over_process = options.pid > 0 && t->list_with_pid;
      if (by_process && !over_process) continue;
      // "-l uprobe" alone reaches the provider, which says that a binary is needed.
      if (t->list_needs_binary && !asked && !over_process) continue;
      if (!asked && !t->list_in_all) continue;
      if (!asked && !may_match(filter, t->name)) continue;
      // A type this kernel lacks gets its note only where the pattern named it.
      if (!t->provider().unavailable(t->name).empty()) {
        if (asked || (!pattern.empty() && elf::glob_match(filter, t->name)))
          keep_failure(list_one(*t, {}, options, sink, listed), *t);
        continue;
      }
      keep_failure(list_one(*t, {}, options, sink, listed), *t);
    }
    if (first_failure) return *first_failure;
    return {};
  }
  std::vector<std::string> rest(parts.begin() + 1, parts.end());
  if (rest.size() == 1 && rest[0].empty()) rest.clear();  // "usdt:" / "tracepoint:"
  if (const ProbeType* t = find_probe_type(parts[0])) {
    ListSink sink(out, options.verbose, "");
    return list_one(*t, rest, options, sink, listed);
  }
  std::vector<std::string> names;
  std::string all;
  for (const ProbeType* t : listed_types()) {
    names.push_back(t->name);
    all += (all.empty() ? "probe types: " : ", ") + std::string(t->name);
  }
  std::string suggestion = lang::did_you_mean(parts[0], names);
  return make_error("unknown probe type '" + parts[0] + "'", pattern,
                    suggestion.empty() ? all : suggestion.substr(2));
}

}  // namespace

Status list_probes(const ListOptions& options, FILE* out) {
  Listed listed;
  if (Status st = list_matching(options, out, listed); !st) return st;
  if (listed.lines > 0 || listed.noted_unavailable) return {};
  // An empty answer is an error, so `rawprobe -l PATTERN && ...` can tell "none" from "some".
  if (options.pattern.empty())
    return make_error("no uprobe or usdt probes found in process " + std::to_string(options.pid),
                      "", "the process's objects have no symbols or USDT notes: is it stripped?");
  // The pattern widened at its last part that is not already '*': the listing one level up.
  std::vector<std::string> parts = lang::split_probe_parts(options.pattern);
  std::string hint = "list what there is with -l alone, or a wider pattern";
  for (size_t i = parts.size(); i-- > 1;) {
    if (parts[i] == "*") continue;
    parts[i] = "*";
    std::string wider;
    for (const std::string& part : parts) wider += (wider.empty() ? "" : ":") + part;
    hint = "list what there is with a wider pattern: -l '" + wider + "'";
    break;
  }
  if (options.pid > 0) hint += ", or without -p";
  return make_error("no probes match", options.pattern, hint);
}

}  // namespace rawprobe::probes
