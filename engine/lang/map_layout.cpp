#include "engine/lang/map_layout.h"

#include <linux/bpf.h>

#include "engine/lang/functions.h"

namespace rawprobe::lang {

MapLayout plan_map_layout(const std::vector<Type>& key, const Type& value, const LHistParams& lhist) {
  MapLayout l;
  l.lhist = lhist;
  l.per_cpu = is_aggregation(value.kind);
  // A count() without keys lives in a one-entry per-CPU array, as bpftrace 0.17 keeps it:
  // the verifier inlines an array lookup where a hash map hashes the key in a helper call
  // (bench, bpf_stats: 279 against bpftrace's 153 ns a hit while it was a hash), and the
  // entry always exists, so a count nothing hit prints "@: 0" as bpftrace's does.
  l.single_entry = key.empty() && value.kind == TypeKind::Count;
  l.kernel_type = l.single_entry ? BPF_MAP_TYPE_PERCPU_ARRAY : l.per_cpu ? BPF_MAP_TYPE_PERCPU_HASH : BPF_MAP_TYPE_HASH;
  l.key = l.single_entry ? StructLayout{{0}, 4, 4} : key.empty() ? StructLayout{{0}, 8, 8} : layout_of(key);
  l.slot_size = value_slot_size(value, lhist);
  return l;
}

void keep_hist_sums(ProgramInfo& info) {
  for (MapInfo& m : info.maps) {
    bool hist = m.value.kind == TypeKind::Hist || m.value.kind == TypeKind::LHist;
    if (!hist || m.layout.hist_sum) continue;
    m.layout.hist_sum = true;
    m.layout.slot_size += 8;
  }
}

}  // namespace rawprobe::lang
