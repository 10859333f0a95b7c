// iter:NAME: a BPF iterator (Linux 5.8). The program is BPF_PROG_TYPE_TRACING with
// expected_attach_type BPF_TRACE_ITER and attach_btf_id the kernel's `bpf_iter_NAME` FUNC;
// its context is `struct bpf_iter__NAME` { meta; the object(s) } (kernel/bpf/bpf_iter.c
// DEFINE_BPF_ITER_FUNC declares both). Attaching makes a link (BPF_LINK_CREATE) and an
// iterator fd (BPF_ITER_CREATE); reading that fd runs the program once per object, here once
// over all of them before rawprobe ends, as bpftrace does. The last call, after the last
// object, has the object NULL; the block does not run for it (codegen's prologue).
//
// The targets are what this kernel's BTF declares: every `bpf_iter_NAME` FUNC with a
// `struct bpf_iter__NAME`. Those that need a parameter at attach time (a map, a cgroup) are
// refused by the kernel with a hint.
//
// iter:NAME:PIN pins the link to bpffs instead (BPF_OBJ_PIN), as bpftrace does, and rawprobe
// ends: each read of the pinned file runs the program, and what its printf calls wrote
// (bpf_seq_printf into the reader's seq_file, gen_seq_printf.cpp) is what the reader gets.
#include <linux/bpf.h>

#include <algorithm>

#include "elf/symbol_match.h"
#include "engine/btf/host_kernel_types.h"
#include "engine/lang/suggest.h"
#include "engine/probes/providers.h"
#include "engine/probes/tracing_refusal.h"
#include "engine/sys/bpffs.h"
#include "engine/sys/features.h"
#include "engine/sys/tracing.h"

namespace rawprobe::probes {
namespace {

constexpr std::string_view kFuncPrefix = "bpf_iter_";
constexpr std::string_view kStructPrefix = "bpf_iter__";

// The members of struct bpf_iter__NAME after `meta`, each a union of one member in the
// kernel's source (so a pointer reads the same as a u64), flattened: "task" at 8, ...
std::vector<lang::TracepointField> context_fields(ctypes::CTypeRef record) {
  std::vector<lang::TracepointField> out;
  record = ctypes::strip_typedefs(record);
  if (!record) return out;
  for (size_t i = 1; i < record->members.size(); ++i) {
    const ctypes::CMember& m = record->members[i];
    ctypes::CTypeRef inner = ctypes::strip_typedefs(m.type);
    std::vector<std::pair<const ctypes::CMember*, uint32_t>> flat;
    if (m.name.empty() && inner && !inner->members.empty()) {
      for (const ctypes::CMember& n : inner->members) flat.push_back({&n, m.bit_offset + n.bit_offset});
    } else {
      flat.push_back({&m, m.bit_offset});
    }
    for (auto [member, bits] : flat) {
      lang::TracepointField f;
      f.name = member->name;
      f.declaration = ctypes::spell(member->type);
      f.offset = bits / 8;
      f.size = ctypes::size_of(member->type);
      out.push_back(f);
    }
  }
  return out;
}

struct IterTarget {
  std::string name;  // "task"
  uint32_t btf_id = 0;
  std::vector<lang::TracepointField> fields;
};

// Every target this kernel's BTF declares, by name.
Result<std::vector<IterTarget>> iter_targets(const std::string& pattern) {
  Result<btf::KernelTypes*> kernel = btf::host_kernel_types();
  if (!kernel)
    return make_error("read the kernel's BTF", "/sys/kernel/btf/vmlinux",
                      "iterators need a kernel built with CONFIG_DEBUG_INFO_BTF (Linux 5.8 or later)");
  std::vector<IterTarget> out;
  for (const auto& f : (*kernel)->function_names([](std::string_view m) { return m == "vmlinux"; })) {
    if (f.name.rfind(kFuncPrefix, 0) != 0) continue;
    std::string name = f.name.substr(kFuncPrefix.size());
    if (!glob_match(pattern, name)) continue;
    ctypes::CTypeRef record = (*kernel)->find(ctypes::CKind::Struct, std::string(kStructPrefix) + name);
    if (!record) continue;
    Result<btf::KernelFunction> func = (*kernel)->function(f.name, "vmlinux");
    if (!func) return func.error();
    out.push_back({name, func->btf_id, context_fields(record)});
  }
  std::sort(out.begin(), out.end(), [](const IterTarget& a, const IterTarget& b) { return a.name < b.name; });
  return out;
}

class IterProvider final : public Provider {
 public:
  Status parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const override {
    if ((p.size() != 2 && p.size() != 3) || p[1].empty())
      return make_error("iter needs iter:NAME or iter:NAME:PIN (e.g. iter:task, iter:task:/sys/fs/bpf/tasks; "
                        "list them with -l 'iter:*')");
    if (p.size() == 3) {
      // bpftrace's rule: an absolute path, or a name under /sys/fs/bpf.
      const std::string& pin = p[2];
      if (pin.empty() || pin.back() == '/')
        return make_error("iter pin '" + pin + "' names no file: give iter:" + p[1] + ":NAME (pinned at " +
                          sys::kBpffsDir + "/NAME) or an absolute path on bpffs");
      out.target = pin[0] == '/' ? pin : std::string(sys::kBpffsDir) + "/" + pin;
    }
    out.name = p[1];
    if (lang::has_wildcard(out.name))
      return make_error("iter probes take no wildcards: each iterator has its own context type (list them with -l 'iter:*')");
    return {};
  }

  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec, const ExpandContext&) const override {
    Result<std::vector<IterTarget>> targets = iter_targets("*");
    if (!targets) return targets.error();
    for (const IterTarget& t : *targets) {
      if (t.name != spec.name) continue;
      if (!spec.target.empty())
        if (Status s = sys::check_pin_path(spec.target, "iter:" + t.name); !s) return s.error();
      AttachPoint p;
      p.kind = ProbeKind::Iter;
      p.name = "iter:" + t.name + (spec.target.empty() ? "" : ":" + spec.target);
      p.path = spec.target;  // the pin, if any
      p.arch = &arch::host();
      p.event = t.name;
      p.module = "vmlinux";
      p.btf_id = t.btf_id;
      p.fields = t.fields;
      return std::vector<AttachPoint>{std::move(p)};
    }
    std::vector<std::string> names;
    for (const IterTarget& t : *targets) names.push_back(t.name);
    return make_error("iterator '" + spec.name + "' not found: the kernel's BTF declares no bpf_iter_" + spec.name,
                      spec.raw, close_names_hint("iter", lang::closest_names(spec.name, names)));
  }

  Result<std::unique_ptr<Attachment>> attach(std::span<const AttachPoint> points, std::span<const int> prog_fds,
                                             const AttachOptions&) const override {
    return attach_each(points, prog_fds, [](const AttachPoint& p, int prog_fd, uint64_t, AttachmentSet& set) -> Status {
      Result<sys::Fd> link = sys::link_iter(prog_fd, p.name);
      if (!link) {
        Error e = with_tracing_refusal_hint(link.error(), ProbeKind::Iter);
        if (e.err == EINVAL || e.err == EBADF)
          e.hint = "the kernel wants a parameter for this iterator (a map or a cgroup), which rawprobe does not pass; "
                   "iter:task, iter:task_file and iter:task_vma need none";
        return e;
      }
      if (!p.path.empty()) {
        if (Status pinned = sys::pin_object(link->get(), p.path, "iter:" + p.event); !pinned) return pinned;
        set.add_pinned_iterator(std::move(*link), p.path, "iterator (BPF_LINK_CREATE + BPF_OBJ_PIN): " + p.name);
        return {};
      }
      Result<sys::Fd> iter = sys::iter_create(link->get(), p.name);
      if (!iter) return iter.error();
      set.add_iterator(std::move(*link), std::move(*iter), "iterator (BPF_LINK_CREATE + BPF_ITER_CREATE): " + p.name);
      return {};
    });
  }

  // Iterators are typed and attached through the kernel's BTF: a kernel without it (Debian's
  // armmp) has none to list, and the whole listing goes on without them.
  std::string unavailable(std::string_view name) const override {
    if (sys::has(sys::Feature::kernel_btf)) return "";
    return "this kernel has no BTF (no /sys/kernel/btf/vmlinux): no " + std::string(name) +
           " probes to list; iterators need a kernel built with CONFIG_DEBUG_INFO_BTF (Linux 5.8 or later)";
  }

  Status list(const ListRequest& request, ListSink& sink) const override {
    Result<std::vector<IterTarget>> targets = iter_targets(request.parts.empty() ? "*" : request.parts.back());
    if (!targets) return targets.error();
    for (const IterTarget& t : *targets) {
      if (!sink.line("iter:" + t.name) || !sink.verbose()) continue;
      for (const lang::TracepointField& f : t.fields) sink.detail("    " + f.declaration + " " + f.name);
    }
    return {};
  }

  Status explain(const lang::ProbeSpec& spec, const ExplainOptions& options, FILE* out) const override {
    return explain_points(spec, options, out, [&](const AttachPoint& p, std::span<const AttachPoint>) -> Status {
      std::string ctx;
      for (const lang::TracepointField& f : p.fields)
        ctx += (ctx.empty() ? "" : ", ") + f.declaration + " " + f.name + " at ctx+" + std::to_string(f.offset);
      std::fprintf(out,
                   "kernel iterator %s: FUNC bpf_iter_%s, BTF id %u\n"
                   "load: BPF_PROG_TYPE_TRACING, expected_attach_type BPF_TRACE_ITER, attach_btf_id %u\n"
                   "context: struct bpf_iter__%s *ctx: %s\n"
                   "attach: bpf(BPF_LINK_CREATE, attach_type BPF_TRACE_ITER), then %s\n",
                   p.event.c_str(), p.event.c_str(), p.btf_id, p.btf_id, p.event.c_str(), ctx.c_str(),
                   p.path.empty() ? "bpf(BPF_ITER_CREATE); reading the iterator fd runs the program once per "
                                    "object, then rawprobe ends"
                                  : ("bpf(BPF_OBJ_PIN) at " + p.path + " (bpffs), and rawprobe ends; each read of that "
                                     "file runs the program once per object, its printf output being what is read")
                                        .c_str());
      return {};
    });
  }
};

}  // namespace

const Provider& iter_provider() { return the_provider<IterProvider>(); }

}  // namespace rawprobe::probes
