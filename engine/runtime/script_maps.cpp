#include "engine/runtime/script_maps.h"

#include <linux/bpf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/base/layout.h"
#include "engine/output/map_merge.h"
#include "engine/runtime/stack_text.h"
#include "engine/sys/bpf_map.h"

namespace rawprobe::runtime {
namespace {

// Below this many stacks a stack map would lose most stacks of a busy run; the ENOMEM then
// stands, with its hint about memory limits.
constexpr uint32_t kSmallestStackMap = 1024;

}  // namespace

bool is_per_cpu_map(uint32_t type) {
  return type == BPF_MAP_TYPE_PERCPU_HASH || type == BPF_MAP_TYPE_PERCPU_ARRAY ||
         type == BPF_MAP_TYPE_LRU_PERCPU_HASH || type == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

uint32_t lookup_value_size(const codegen::MapDef& def, uint32_t ncpus) {
  if (!is_per_cpu_map(def.type)) return def.value_size;
  return per_cpu_stride(def.value_size) * ncpus;
}

Result<ScriptMaps> ScriptMaps::create(const codegen::CompiledScript& script,
                                      const lang::ProgramInfo& info, uint32_t ncpus) {
  ScriptMaps maps;
  maps.script_ = &script;
  maps.info_ = &info;
  maps.text_ = PointText(&script.point_names);
  maps.ncpus_ = ncpus;
  maps.kernel_of_user_.assign(info.maps.size(), -1);
  for (size_t i = 0; i < script.maps.size(); ++i) {
    const codegen::MapDef& def = script.maps[i];
    sys::MapSpec spec{def.type, def.key_size, def.value_size, def.max_entries, def.flags,
                      codegen::kernel_object_name(def.name)};
    Result<sys::Fd> fd = sys::map_create(spec);
    // bpftrace's 128K stacks of 127 frames take about 130 MB of vmalloc space, which a
    // 32-bit kernel may not have (arm's whole vmalloc area is 240 MB by default) and a
    // memory-limited cgroup may not allow: ENOMEM. Stack ids are a cache of distinct stacks,
    // so a smaller map still works, holding fewer (bpf_get_stackid then fails more often,
    // which the lost-stacks warning counts); halve it until the kernel can allocate it.
    while (!fd && fd.error().err == ENOMEM && def.type == BPF_MAP_TYPE_STACK_TRACE &&
           spec.max_entries > kSmallestStackMap) {
      spec.max_entries /= 2;
      fd = sys::map_create(spec);
    }
    if (!fd) {
      fd.error().object = def.name;
      return fd.error();
    }
    maps.fds_.push_back(fd->get());
    maps.entries_.push_back(spec.max_entries);
    maps.owned_.push_back(std::move(*fd));
    if (def.user_map >= 0 && size_t(def.user_map) < info.maps.size())
      maps.kernel_of_user_[size_t(def.user_map)] = int(i);
  }
  for (size_t u = 0; u < info.maps.size(); ++u) {
    const lang::MapInfo& m = info.maps[u];
    MapDesc desc;
    desc.name = m.name;
    // `probe` and `func` parts print as text (point_text.h): output decodes strings.
    desc.key = maps.text_.text_types(m.key);
    desc.value = maps.text_.text_type(m.value);
    maps.text_keys_.push_back(PointText::has_ids(m.key));
    maps.text_values_.push_back(PointText::has_ids(m.value));
    desc.ncpus = m.layout.per_cpu ? ncpus : 1;
    desc.lhist = m.layout.lhist;
    desc.hist_sum = m.layout.hist_sum;
    maps.descs_.push_back(std::move(desc));
  }
  maps.text_descs_ = maps.descs_;
  return maps;
}

int ScriptMaps::map_index_of_user_map(size_t user_map) const {
  return user_map < kernel_of_user_.size() ? kernel_of_user_[user_map] : -1;
}

std::vector<size_t> ScriptMaps::user_maps_by_name() const {
  std::vector<size_t> order;
  for (size_t u = 0; u < info_->maps.size(); ++u)
    if (kernel_of_user_[u] >= 0) order.push_back(u);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return info_->maps[a].name < info_->maps[b].name; });
  return order;
}

Result<std::vector<std::vector<uint8_t>>> ScriptMaps::keys_of(int kernel_map) const {
  const codegen::MapDef& def = script_->maps[size_t(kernel_map)];
  std::vector<std::vector<uint8_t>> keys;
  std::vector<uint8_t> key(def.key_size), next(def.key_size);
  const void* prev = nullptr;
  for (;;) {
    Result<bool> more = sys::map_next_key(fds_[size_t(kernel_map)], prev, next.data());
    if (!more) return more.error();
    if (!*more) break;
    keys.push_back(next);
    key = next;
    prev = key.data();
    if (keys.size() > def.max_entries) break;  // a map changing under us must not loop forever
  }
  return keys;
}

void ScriptMaps::enable_symbols(size_t budget_bytes, bool folded) {
  symbols_ = std::make_unique<StackText>(*script_, fds_, budget_bytes);
  text_.set_symbols(symbols_.get());
  folded_ = folded;
}

namespace {

bool has_stack(const std::vector<Type>& types) {
  for (const Type& t : types)
    if (t.kind == TypeKind::UStack || t.kind == TypeKind::KStack || (t.kind == TypeKind::Tuple && has_stack(t.fields)))
      return true;
  return false;
}

}  // namespace

Result<MapEntries> ScriptMaps::read(size_t user_map) const {
  const lang::MapInfo& m = info_->maps[user_map];
  int k = kernel_of_user_[user_map];
  bool text_key = text_keys_[user_map], text_value = text_values_[user_map];
  const codegen::MapDef* def = k < 0 ? nullptr : &script_->maps[size_t(k)];
  uint32_t kernel_value = def ? lookup_value_size(*def, ncpus_) : 0;
  // The kernel's entries first: stack and symbol strings are as wide as the longest text.
  std::vector<std::vector<uint8_t>> kernel_keys, kernel_values;
  if (def) {
    Result<std::vector<std::vector<uint8_t>>> keys = keys_of(k);
    if (!keys) return keys.error();
    std::vector<uint8_t> value(kernel_value);
    for (std::vector<uint8_t>& key : *keys) {
      Result<bool> found = sys::map_lookup(fds_[size_t(k)], key.data(), value.data());
      if (!found) return found.error();
      if (!*found) continue;  // deleted since we listed it
      kernel_keys.push_back(std::move(key));
      kernel_values.push_back(value);
    }
  }
  // Keys print with 4 spaces before each frame, values with 8, as bpftrace's; folded output
  // folds the stacks of keys.
  StackStyle key_style{4, folded_ && has_stack(m.key)}, value_style{8, false};
  if (text_key || text_value) {
    text_.reset_width();
    for (size_t i = 0; i < kernel_keys.size(); ++i) {
      text_.set_style(key_style);
      if (text_key) text_.fit(m.key, kernel_keys[i].data());
      text_.set_style(value_style);
      if (text_value) text_.fit(m.value, kernel_values[i].data());
    }
  }
  MapDesc& desc = text_descs_[user_map];
  desc = descs_[user_map];
  desc.key = text_.text_types(m.key);
  desc.value = text_.text_type(m.value);
  desc.folded = key_style.folded;
  desc.stack_parts.clear();
  for (const Type& t : m.key) desc.stack_parts.push_back(has_stack({t}));
  uint32_t key_size = map_key_size(desc);
  uint32_t value_size = map_value_size(desc);
  MapEntries entries(key_size, value_size);
  if (!def) return entries;
  if (!text_value && kernel_value < value_size)
    return make_error("read map", desc.name,
                      "the kernel map holds " + std::to_string(kernel_value) +
                          " value bytes but printing needs " + std::to_string(value_size));
  if (!text_key && def->key_size < key_size)
    return make_error("read map", desc.name, "its kernel keys are shorter than its key type");
  std::vector<uint8_t> key(key_size), value_text(text_value ? value_size : 0);
  entries.reserve(kernel_keys.size());
  for (size_t i = 0; i < kernel_keys.size(); ++i) {
    const uint8_t* key_bytes = kernel_keys[i].data();
    if (text_key) {
      text_.set_style(key_style);
      text_.write_text(m.key, kernel_keys[i].data(), key.data());
      key_bytes = key.data();
    }
    // A value holding point ids is a plain value (an assignment), never per-CPU: one slot.
    if (text_value) {
      text_.set_style(value_style);
      text_.write_text(m.value, kernel_values[i].data(), value_text.data());
    }
    entries.add(desc.key.empty() ? nullptr : key_bytes, text_value ? value_text.data() : kernel_values[i].data());
  }
  // Two points with one name are two kernel keys but one printed key (map_merge.h); two
  // stacks that print alike stay two entries, as in bpftrace, except folded, where a line
  // per stack is the format.
  if (PointText::has_points(m.key) || desc.folded) return merge_equal_keys(desc, entries);
  return entries;
}

Status ScriptMaps::clear(size_t user_map) const {
  // bpftrace 0.17 clears a map without keys by zeroing it: it still prints, as "@c: 0".
  if (descs_[user_map].key.empty()) return zero(user_map);
  int k = map_index_of_user_map(user_map);
  if (k < 0) return {};
  Result<std::vector<std::vector<uint8_t>>> keys = keys_of(k);
  if (!keys) return keys.error();
  for (const std::vector<uint8_t>& key : *keys)
    if (Result<bool> r = sys::map_delete(fds_[size_t(k)], key.data()); !r) return r.error();
  return {};
}

Status ScriptMaps::zero(size_t user_map) const {
  int k = map_index_of_user_map(user_map);
  if (k < 0) return {};
  Result<std::vector<std::vector<uint8_t>>> keys = keys_of(k);
  if (!keys) return keys.error();
  std::vector<uint8_t> zeros(lookup_value_size(script_->maps[size_t(k)], ncpus_), 0);
  for (const std::vector<uint8_t>& key : *keys)
    if (Status s = sys::map_update(fds_[size_t(k)], key.data(), zeros.data()); !s) return s;
  return {};
}

}  // namespace rawprobe::runtime
