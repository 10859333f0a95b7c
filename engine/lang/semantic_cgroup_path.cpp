// cgroup_path(id) and cgroup_path(id, "filter"): the filter, as in bpftrace 0.17, is a
// pattern over the hierarchy names ("unified", "cpu", "cpuset", ...) in which only * is
// special; the hierarchies it matches are the ones printed ("cpu*": cpu, cpuacct, cpuset).
// The value stays the id in the kernel; the filter rides in its type to user space, which
// writes the text (engine/runtime/cgroup_paths.h).
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {

void Checker::call_cgroup_path(Expr& e) {
  call_generic(e);  // arity, an integer id, a string filter: bpftrace 0.17's messages
  if (e.type.kind == TypeKind::None || e.operands.size() < 2) return;
  const Expr& filter = *e.operands[1];
  // bpftrace 0.17 takes a string variable and then prints nothing; one that never matches is
  // refused here instead.
  if (!filter.is_literal_string()) {
    error(filter.span, "cgroup_path() needs its filter as a string literal (\"unified\", \"cpu*\"), known before the run");
    return;
  }
  // bpftrace 0.17 crashes on "".
  if (filter.str.empty()) {
    error(filter.span, "cgroup_path()'s filter is empty, so it matches no hierarchy: name one (\"unified\") or use * "
                       "(\"cpu*\", \"*\")");
    return;
  }
  e.type.c_name = filter.str;
}

}  // namespace rawprobe::lang
