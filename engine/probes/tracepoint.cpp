#include "engine/probes/tracepoint.h"

#include <algorithm>
#include <sstream>
#include <sys/stat.h>

#include "elf/symbol_match.h"
#include "engine/lang/suggest.h"
#include "engine/probes/providers.h"
#include "engine/sys/attach.h"
#include "engine/sys/host_root.h"
#include "engine/sys/perf.h"
#include "engine/sys/tracefs.h"

namespace rawprobe::probes {

Result<std::vector<std::pair<std::string, std::string>>> all_tracepoints() {
  Result<std::string> dir = sys::tracefs_dir();
  if (!dir) return dir.error();
  std::string text;
  if (!sys::read_text_file(*dir + "/available_events", text))
    return make_error("read the tracepoint list", *dir + "/available_events",
                      "reading tracefs needs root");
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    out.emplace_back(line.substr(0, colon), line.substr(colon + 1));
  }
  return out;
}

Result<std::vector<std::pair<std::string, std::string>>> TracefsCatalog::match(const std::string& category,
                                                                               const std::string& name) {
  std::vector<std::pair<std::string, std::string>> out;
  // An exact name, as most scripts write: one stat() rather than reading and parsing the
  // ~2,300 lines of available_events once per probe and again for each use of args (that
  // was a quarter of a tracepoint script's start-up). `enable` is what the events listed in
  // available_events have and ftrace's own entries (events/ftrace/*) do not.
  auto plain = [](const std::string& s) { return s.find_first_of("*?/") == std::string::npos; };
  if (plain(category) && plain(name) && !category.empty() && !name.empty()) {
    Result<std::string> dir = sys::tracefs_dir();
    if (!dir) return dir.error();
    struct stat st;
    if (::stat((*dir + "/events/" + category + "/" + name + "/enable").c_str(), &st) == 0)
      out.emplace_back(category, name);
    return out;
  }
  Result<std::vector<std::pair<std::string, std::string>>> all = all_tracepoints();
  if (!all) return all.error();
  for (auto& tp : *all)
    if (elf::glob_match(category, tp.first) && elf::glob_match(name, tp.second)) out.push_back(tp);
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::vector<lang::TracepointField>> TracefsCatalog::fields(const std::string& category,
                                                                  const std::string& name) {
  Result<std::string> format = sys::tracepoint_format(category, name);
  if (!format) return format.error();
  return lang::parse_tracepoint_format(*format);
}

std::vector<std::string> close_tracepoints(const std::string& category, const std::string& name) {
  std::vector<std::string> full, same_category;
  Result<std::vector<std::pair<std::string, std::string>>> all = all_tracepoints();
  if (!all) return {};
  for (auto& [c, n] : *all) {
    full.push_back(c + ":" + n);
    if (c == category) same_category.push_back(n);
  }
  std::vector<std::string> close = lang::closest_names(category + ":" + name, full);
  if (close.empty())
    for (const std::string& n : lang::closest_names(name, same_category)) close.push_back(category + ":" + n);
  return close;
}

namespace {

class TracepointProvider final : public Provider {
 public:
  // CATEGORY:NAME
  Status parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const override {
    if (p.size() != 3 || p[1].empty() || p[2].empty()) {
      return make_error("tracepoint needs tracepoint:CATEGORY:NAME (e.g. tracepoint:syscalls:sys_enter_read)");
    }
    out.provider = p[1];
    out.name = p[2];
    out.wildcard = lang::has_wildcard(out.provider) || lang::has_wildcard(out.name);
    return {};
  }

  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext&) const override {
    TracefsCatalog catalog;
    Result<std::vector<std::pair<std::string, std::string>>> matched = catalog.match(spec.provider, spec.name);
    if (!matched) return matched.error();
    std::vector<std::pair<std::string, std::string>>& found = *matched;
    if (found.empty()) {
      // bpftrace 0.17's words first, for scripts that match them.
      return make_error("tracepoint not found: " + spec.provider + ":" + spec.name, spec.raw,
                        close_names_hint("tracepoint", close_tracepoints(spec.provider, spec.name), false));
    }
    std::vector<AttachPoint> points;
    for (auto& [category, name] : found) {
      Result<std::vector<lang::TracepointField>> fields = catalog.fields(category, name);
      if (!fields) return fields.error();
      AttachPoint p;
      p.kind = ProbeKind::Tracepoint;
      p.name = "tracepoint:" + category + ":" + name;
      p.func = name;
      p.arch = &arch::host();
      p.category = category;
      p.event = name;
      p.fields = std::move(*fields);
      points.push_back(std::move(p));
    }
    return points;
  }

  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points,
                                             std::span<const int> prog_fds,
                                             const AttachOptions&) const override {
    return attach_each(points, prog_fds, [](const AttachPoint& p, int prog_fd, uint64_t cookie,
                                            AttachmentSet& set) -> Status {
      Result<uint32_t> id = sys::tracepoint_id(p.category, p.event);
      if (!id) return id.error();
      // A tracepoint's program runs on every CPU that hits it; the event needs some cpu.
      Result<sys::Fd> fd = sys::open_tracepoint(*id, -1, 0, p.name);
      if (!fd) return fd.error();
      Result<sys::PerfAttachment> a = sys::attach_perf_event(std::move(*fd), prog_fd, cookie);
      if (!a) return a.error();
      std::string how = "tracepoint id " + std::to_string(*id) + " (" +
                        sys::attach_mode_name(a->mode()) + "): " + p.name;
      set.add_perf(std::move(*a), how);
      return {};
    });
  }

  // tracepoint:CATEGORY:NAME, with -v the record fields as bpftrace prints them
  // (rawtracepoint:NAME lines: rawtracepoint.cpp).
  Status list(const ListRequest& request, ListSink& sink) const override {
    Result<std::vector<std::pair<std::string, std::string>>> all = all_tracepoints();
    if (!all) return all.error();
    // bpftrace sorts whole lines: "fib6:..." before "fib:..." (':' sorts after digits).
    std::sort(all->begin(), all->end(), [](const auto& a, const auto& b) {
      return a.first + ":" + a.second < b.first + ":" + b.second;
    });
    std::string category = "*", name = "*";
    if (request.parts.size() == 1) {
      category = request.parts[0];
    } else if (request.parts.size() >= 2) {
      category = request.parts[0];
      name = request.parts[1];
    }
    for (auto& [c, n] : *all) {
      if (!elf::glob_match(category, c) || !elf::glob_match(name, n)) continue;
      if (!sink.line("tracepoint:" + c + ":" + n) || !sink.verbose()) continue;
      Result<std::string> format = sys::tracepoint_format(c, n);
      if (!format) return format.error();
      Result<std::vector<lang::TracepointField>> fields = lang::parse_tracepoint_format(*format);
      if (!fields) return fields.error();
      for (const lang::TracepointField& f : *fields)
        if (f.name.rfind("common_", 0) != 0) sink.detail("    " + f.declaration);
    }
    return {};
  }

  // Each matching tracepoint's id and its record's format, which args->field reads.
  Status explain(const lang::ProbeSpec& spec, const ExplainOptions&, FILE* out) const override {
    Result<std::vector<AttachPoint>> points = expand(spec, ExpandContext{});
    if (!points) return points.error();
    for (const AttachPoint& p : *points) {
      Result<uint32_t> id = sys::tracepoint_id(p.category, p.event);
      if (!id) return id.error();
      Result<std::string> format = sys::tracepoint_format(p.category, p.event);
      if (!format) return format.error();
      Result<std::string> dir = sys::tracefs_dir();
      std::fprintf(out, "%s: id %u (%s/events/%s/%s/id)\n", p.name.c_str(), *id,
                   dir ? dir->c_str() : "tracefs", p.category.c_str(), p.event.c_str());
      std::fprintf(out, "attach: perf_event_open(PERF_TYPE_TRACEPOINT, config = %u), program type "
                        "tracepoint; args->field reads the record below\n", *id);
      std::fputs(format->c_str(), out);
    }
    return {};
  }
};

}  // namespace

const Provider& tracepoint_provider() { return the_provider<TracepointProvider>(); }

}  // namespace rawprobe::probes
