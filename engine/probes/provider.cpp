#include "engine/probes/provider.h"

#include <linux/bpf.h>
#include <unistd.h>

#include "elf/symbol_match.h"
#include "engine/probes/providers.h"
#include "engine/sys/features.h"
#include "engine/sys/stop_requested.h"
#include "engine/sys/tracing.h"
#include "engine/sys/uapi_compat.h"

namespace rawprobe::probes {

Result<AttachMode> parse_attach_mode(std::string_view text) {
  if (text == "auto") return AttachMode::Auto;
  if (text == "pmu") return AttachMode::Pmu;
  if (text == "legacy") return AttachMode::Legacy;
  return make_error("unknown attach mode '" + std::string(text) + "'", "--attach-mode",
                    "use auto (best available), pmu (perf_event_open of the kprobe/uprobe PMU) "
                    "or legacy (tracefs kprobe_events/uprobe_events)");
}

const char* attach_mode_name(AttachMode mode) {
  switch (mode) {
    case AttachMode::Auto: return "auto";
    case AttachMode::Pmu: return "pmu";
    case AttachMode::Legacy: return "legacy";
  }
  return "?";
}

LoadPlan load_plan(std::span<const AttachPoint> points, const AttachOptions& options) {
  LoadPlan plan;
  plan.type = points.empty() ? ProgramType::Kprobe : program_type(points.front().kind);
  if (uses_uprobe_multi(points, options)) {
    plan.expected_attach_type = sys::uapi::kTraceUprobeMulti;
    plan.cookies = true;
  } else if (uses_kprobe_multi(points, options)) {
    plan.expected_attach_type = BPF_TRACE_KPROBE_MULTI;
    plan.cookies = true;
  } else if (plan.type == ProgramType::Tracing) {
    // One program per point, each verified against its function (or iterator target).
    const AttachPoint& p = points.front();
    plan.per_point = true;
    plan.expected_attach_type = p.kind == ProbeKind::Iter    ? BPF_TRACE_ITER
                                : p.kind == ProbeKind::Fexit ? BPF_TRACE_FEXIT
                                                             : BPF_TRACE_FENTRY;
    plan.attach_btf_id = p.btf_id;
    plan.attach_btf_module = p.module;
  } else if (plan.type == ProgramType::RawTracepoint) {
    // BPF_RAW_TRACEPOINT_OPEN carries a cookie only since 6.10: a program per point instead.
    plan.cookies = false;
  } else {
    // Perf-event programs get their cookie through BPF_LINK_CREATE(BPF_PERF_EVENT), 5.15.
    plan.cookies = sys::has(sys::Feature::perf_link);
  }
  return plan;
}

const Provider& provider_for(ProbeKind kind) { return probe_type(kind).provider(); }

Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec, const ExpandContext& ctx) {
  return provider_for(spec.kind).expand(spec, ctx);
}

Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points,
                                           std::span<const int> prog_fds,
                                           const AttachOptions& options) {
  if (points.empty()) return make_error("attach probe block", "", "the block has no attach points");
  ProgramType type = program_type(points.front().kind);
  for (const AttachPoint& p : points) {
    if (program_type(p.kind) != type)
      return make_error("attach probe block", p.name,
                        "a program of type " + std::string(program_type_name(type)) +
                            " cannot run on a " + program_type_name(program_type(p.kind)) +
                            " probe; load one program per program type");
  }
  // Every point of one provider family goes through that provider; the uprobe family
  // (uprobe, uretprobe, usdt, BEGIN, END) shares one attach path, so the first point decides.
  return provider_for(points.front().kind).attach(points, prog_fds, options);
}

Result<std::vector<int>> fds_per_point(std::span<const AttachPoint> points,
                                       std::span<const int> prog_fds) {
  if (prog_fds.size() == 1) return std::vector<int>(points.size(), prog_fds[0]);
  if (prog_fds.size() == points.size()) return std::vector<int>(prog_fds.begin(), prog_fds.end());
  return make_error("attach probe block",
                    points.empty() ? std::string() : points.front().name,
                    "pass one program for the block, or one per attach point (" +
                        std::to_string(points.size()) + "), not " +
                        std::to_string(prog_fds.size()));
}

Result<std::unique_ptr<Attachment>> attach_each(std::span<const AttachPoint> points,
                                                std::span<const int> prog_fds,
                                                const AttachOne& one) {
  Result<std::vector<int>> fds = fds_per_point(points, prog_fds);
  if (!fds) return fds.error();
  bool cookies = prog_fds.size() == 1 && points.size() > 1;
  auto set = std::make_unique<AttachmentSet>();
  for (size_t i = 0; i < points.size(); ++i) {
    // A stop signal while hundreds of tracepoints (or other points) are attached one by one:
    // keep what is attached and return; the run ends as on any stop signal and releases it.
    if (sys::stop_requested()) break;
    if (Status st = one(points[i], (*fds)[i], cookies ? i : 0, *set); !st) return st.error();
  }
  return std::unique_ptr<Attachment>(std::move(set));
}

void AttachmentSet::add(std::unique_ptr<Part> part, size_t kernel_objects, std::string what) {
  parts_.push_back(std::move(part));
  count_ += kernel_objects;
  lines_.push_back(std::move(what));
}

namespace {

struct PerfPart final : AttachmentSet::Part {
  explicit PerfPart(sys::PerfAttachment a) : attachment(std::move(a)) {}
  sys::PerfAttachment attachment;
};

struct FdPart final : AttachmentSet::Part {
  explicit FdPart(sys::Fd f) : fd(std::move(f)) {}
  sys::Fd fd;
};

// An iterator's link and its fd (members die in reverse order: the fd, then the link).
struct IterPart final : AttachmentSet::Part {
  IterPart(sys::Fd l, sys::Fd i) : link(std::move(l)), iter(std::move(i)) {}
  sys::Fd link, iter;
};

}  // namespace

void AttachmentSet::add_perf(sys::PerfAttachment attachment, std::string what) {
  add(std::make_unique<PerfPart>(std::move(attachment)), 1, std::move(what));
}

void AttachmentSet::add_fd(sys::Fd fd, size_t kernel_objects, std::string what) {
  add(std::make_unique<FdPart>(std::move(fd)), kernel_objects, std::move(what));
}

void AttachmentSet::add_iterator(sys::Fd link, sys::Fd iter, std::string what) {
  iterators_.push_back(iter.get());
  add(std::make_unique<IterPart>(std::move(link), std::move(iter)), 1, std::move(what));
}

void AttachmentSet::add_pinned_iterator(sys::Fd link, std::string path, std::string what) {
  pinned_.push_back(std::move(path));
  add(std::make_unique<FdPart>(std::move(link)), 1, std::move(what));
}

Result<size_t> AttachmentSet::run_iterators() {
  keep_pins_ = true;
  for (int fd : iterators_)
    if (Status st = sys::iter_read_all(fd); !st) return st.error();
  return iterators_.size() + pinned_.size();
}

std::string AttachmentSet::describe() const {
  std::string text;
  for (const std::string& line : lines_) text += line + "\n";
  return text;
}

AttachmentSet::~AttachmentSet() {
  // Last attached, first released: a semaphore is decremented only after the probes that
  // needed it are gone.
  while (!parts_.empty()) parts_.pop_back();
  // A run that failed before its iterators ran leaves no pinned file behind.
  if (!keep_pins_)
    for (const std::string& path : pinned_) ::unlink(path.c_str());
}

bool ListSink::line(const std::string& text) {
  if (!filter_.empty() && !elf::glob_match(filter_, text)) return false;
  std::fputs(text.c_str(), out_);
  std::fputc('\n', out_);
  ++lines_;
  return true;
}

void ListSink::detail(const std::string& text) {
  std::fputs(text.c_str(), out_);
  std::fputc('\n', out_);
}

}  // namespace rawprobe::probes
