#include "engine/sys/bpf_link.h"

#include <cstring>

#include "engine/sys/bpf_call.h"
#include "engine/sys/uapi_compat.h"

namespace rawprobe::sys {

using detail::ptr_to_u64;

namespace {

// An array argument must be absent or match the target count; a mismatch is our bug or the
// caller's, reported before the kernel reads past the end of the shorter array.
Status check_parallel(size_t count, size_t other, const char* what, const std::string& object) {
  if (other == 0 || other == count) return {};
  return make_error(std::string("attach: ") + what + " has " + std::to_string(other) +
                        " entries for " + std::to_string(count) + " targets",
                    object, "give one per target or none");
}

}  // namespace

Result<Fd> link_perf_event(int prog_fd, int perf_fd, uint64_t cookie) {
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.link_create.prog_fd = prog_fd;
  attr.link_create.target_fd = perf_fd;
  attr.link_create.attach_type = BPF_PERF_EVENT;
  attr.link_create.perf_event.bpf_cookie = cookie;
  return detail::bpf_new_fd(BPF_LINK_CREATE, &attr,
                            RAWPROBE_BPF_ATTR_END(link_create.perf_event.bpf_cookie),
                            "attach program to perf event", "perf fd " + std::to_string(perf_fd));
}

Result<Fd> link_uprobe_multi(int prog_fd, const UprobeMultiSpec& spec) {
  std::string object = spec.path + " (" + std::to_string(spec.offsets.size()) + " offsets)";
  if (spec.offsets.empty()) return make_error("attach uprobe_multi: no offsets", object);
  if (Status st = check_parallel(spec.offsets.size(), spec.ref_ctr_offsets.size(), "ref_ctr_offsets", object); !st)
    return st.error();
  if (Status st = check_parallel(spec.offsets.size(), spec.cookies.size(), "cookies", object); !st)
    return st.error();
  // Room for the whole union: the kernel reads the 6.6 layout, which 6.1's union lacks.
  union {
    union bpf_attr attr;
    uapi::LinkCreateUprobeMulti multi;
  } u;
  std::memset(&u, 0, sizeof u);
  uapi::LinkCreateUprobeMulti& m = u.multi;
  m.prog_fd = prog_fd;
  m.attach_type = uapi::kTraceUprobeMulti;
  m.path = ptr_to_u64(spec.path.c_str());
  m.offsets = ptr_to_u64(spec.offsets.data());
  m.ref_ctr_offsets = spec.ref_ctr_offsets.empty() ? 0 : ptr_to_u64(spec.ref_ctr_offsets.data());
  m.cookies = spec.cookies.empty() ? 0 : ptr_to_u64(spec.cookies.data());
  m.cnt = static_cast<uint32_t>(spec.offsets.size());
  m.multi_flags = spec.retprobe ? uapi::kUprobeMultiReturn : 0;
  m.pid = spec.pid;
  return detail::bpf_new_fd(BPF_LINK_CREATE, &u,
                            offsetof(uapi::LinkCreateUprobeMulti, pid) + sizeof m.pid,
                            "attach uprobe_multi", object);
}

Result<Fd> link_kprobe_multi(int prog_fd, const KprobeMultiSpec& spec) {
  size_t count = spec.symbols.empty() ? spec.addrs.size() : spec.symbols.size();
  std::string object = spec.symbols.empty() ? std::to_string(count) + " addresses"
                                            : spec.symbols.front() + (count > 1 ? " and " + std::to_string(count - 1) + " more" : "");
  if (count == 0) return make_error("attach kprobe_multi: no targets", object);
  if (!spec.symbols.empty() && !spec.addrs.empty())
    return make_error("attach kprobe_multi: both symbols and addresses given", object,
                      "give one or the other");
  if (Status st = check_parallel(count, spec.cookies.size(), "cookies", object); !st) return st.error();
  std::vector<const char*> names;
  for (const std::string& s : spec.symbols) names.push_back(s.c_str());
  union bpf_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.link_create.prog_fd = prog_fd;
  attr.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
  auto& k = attr.link_create.kprobe_multi;
  k.flags = spec.retprobe ? BPF_F_KPROBE_MULTI_RETURN : 0;
  k.cnt = static_cast<uint32_t>(count);
  k.syms = names.empty() ? 0 : ptr_to_u64(names.data());
  k.addrs = spec.addrs.empty() ? 0 : ptr_to_u64(spec.addrs.data());
  k.cookies = spec.cookies.empty() ? 0 : ptr_to_u64(spec.cookies.data());
  return detail::bpf_new_fd(BPF_LINK_CREATE, &attr, RAWPROBE_BPF_ATTR_END(link_create.kprobe_multi.cookies),
                            "attach kprobe_multi", object);
}

}  // namespace rawprobe::sys
