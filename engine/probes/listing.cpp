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

Status list_one(const ProbeType& t, std::vector<std::string> parts, const ListOptions& options,
                ListSink& sink) {
  // A kernel without kprobes has nothing to list; say so when they were asked for by name.
  if (std::string why = t.provider().unavailable(t.name); !why.empty()) {
    std::fprintf(stderr, "note: %s\n", why.c_str());
    return {};
  }
  ListRequest request;
  request.provider = t.name;
  request.parts = std::move(parts);
  request.pid = options.pid;
  return t.provider().list(request, sink);
}

}  // namespace

Status list_probes(const ListOptions& options, FILE* out) {
  const std::string& pattern = options.pattern;
  std::vector<std::string> parts = lang::split_probe_parts(pattern);
  if (pattern.empty() || parts.size() == 1 || lang::has_wildcard(parts[0])) {
    // Whole-line matching over every provider that needs no binary (and, with -p, usdt).
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
      // "-l uprobe" alone reaches the provider, which says that a binary is needed.
      if (t->list_needs_binary && !asked && !(options.pid > 0 && t->list_with_pid)) continue;
      if (!asked && !t->list_in_all) continue;
      if (!asked && !may_match(filter, t->name)) continue;
      // A type this kernel lacks gets its note only where the pattern named it.
      if (!t->provider().unavailable(t->name).empty()) {
        if (asked || (!pattern.empty() && elf::glob_match(filter, t->name))) keep_failure(list_one(*t, {}, options, sink), *t);
        continue;
      }
      keep_failure(list_one(*t, {}, options, sink), *t);
    }
    if (first_failure) return *first_failure;
    return {};
  }
  std::vector<std::string> rest(parts.begin() + 1, parts.end());
  if (rest.size() == 1 && rest[0].empty()) rest.clear();  // "usdt:" / "tracepoint:"
  if (const ProbeType* t = find_probe_type(parts[0])) {
    ListSink sink(out, options.verbose, "");
    return list_one(*t, rest, options, sink);
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

int run_list(const ListOptions& options, FILE* out) {
  Status st = list_probes(options, out);
  if (st) return 0;
  std::fprintf(stderr, "rawprobe: %s\n", st.error().message().c_str());
  return 1;
}

}  // namespace rawprobe::probes
