// compile(): the maps of the script, then one program per probe block and provider (with
// cookies), or per point (without).
#include "engine/codegen/codegen.h"

#include <linux/bpf.h>

#include <algorithm>
#include <optional>

#include "engine/codegen/gen.h"
#include "engine/codegen/tracepoint_layouts.h"

namespace rawprobe::codegen {

using lang::Expr;
using lang::ExprKind;

namespace {

// Whether one program can serve every point of a group that has no bpf cookies: on raw
// tracepoints nothing but `probe` (and `func`, refused there) depends on the point, so a
// block that does not use it needs one program, not one per name of its wildcard.
bool shareable_without_cookies(const lang::CheckedProgram& program, const probes::AttachPoint& first) {
  if (probes::program_type(first.kind) != probes::ProgramType::RawTracepoint) return false;
  const auto& used = program.info.builtins_used;
  return std::find(used.begin(), used.end(), lang::BuiltinId::Probe) == used.end() &&
         std::find(used.begin(), used.end(), lang::BuiltinId::Func) == used.end();
}

std::string program_name(const probes::AttachPoint& p) {
  std::string base = !p.func.empty() ? p.func : !p.event.empty() ? p.event : lang::probe_kind_name(p.kind);
  return kernel_object_name(base);
}

// Which script maps the kernel fills as keys arrive instead of in advance. Preallocating
// 4096 elements times the CPUs of a per-CPU map was most of the kernel's time in a short
// run's start (about 1 ms a map on a 2-CPU VM) and holds memory the script may never use.
// Only the per-CPU hash maps (the aggregations) are filled on demand: their element is made
// once per key and then updated in place. A plain hash map replaces its element on every
// update, which on demand is an allocation and a deferred free each time (bench, bpf_stats:
// `@[tid] = nsecs` took 511 ns a hit against 359 preallocated), so those stay preallocated.
// A map a perf_event program (profile, interval, software, hardware) touches stays
// preallocated too: those run in NMI or timer interrupts, where the allocator's per-CPU
// cache can run dry between refills and an update would then fail, while a full
// preallocated map only refuses keys beyond max_entries.
void choose_map_allocation(CompiledScript& out, const CompileOptions& options) {
  std::optional<bool> on_demand;  // the kernel is asked once, at the first candidate
  for (size_t id = 0; id < out.maps.size(); ++id) {
    MapDef& def = out.maps[id];
    if (def.user_map < 0 || def.type != BPF_MAP_TYPE_PERCPU_HASH) continue;
    bool in_interrupts = std::any_of(out.programs.begin(), out.programs.end(), [&](const CompiledProgram& p) {
      return p.plan.type == probes::ProgramType::PerfEvent && p.code.uses_map(bpf::MapHandle{uint32_t(id)});
    });
    if (in_interrupts) continue;
    if (!on_demand) on_demand = options.hash_maps_on_demand && options.hash_maps_on_demand();
    if (*on_demand) def.flags |= BPF_F_NO_PREALLOC;
  }
}

}  // namespace

ScriptState::ScriptState(const lang::CheckedProgram& program, const CompileOptions& options, CompiledScript& out)
    : program_(program), options_(options), out_(out) {
  const auto& maps = program.info.maps;
  for (size_t id = 0; id < maps.size(); ++id) {
    const MapLayout& layout = maps[id].layout;
    MapDef def;
    def.name = maps[id].name;
    def.type = layout.kernel_type;
    def.key_size = layout.key.size;
    def.value_size = std::max<uint32_t>(layout.slot_size, 1);
    def.max_entries = layout.single_entry ? 1 : options.map_max_entries;
    // `let @m = lruhash(N);`: N entries, and the kernel evicts old keys instead of refusing
    // new ones (the front end checked that the kind fits the value).
    for (const lang::MapDecl& d : program.ast.map_decls) {
      if (d.name != def.name || layout.single_entry) continue;
      def.max_entries = uint32_t(d.max_entries);
      if (d.kind.find("lru") != std::string::npos)
        def.type = layout.per_cpu ? BPF_MAP_TYPE_LRU_PERCPU_HASH : BPF_MAP_TYPE_LRU_HASH;
    }
    def.user_map = static_cast<int>(id);
    user_maps_.push_back(static_cast<uint32_t>(out.maps.size()));
    out.maps.push_back(def);
  }
}

uint32_t ScriptState::events_map() {
  if (out_.events_map < 0) {
    MapDef def;
    def.name = ".events";
    if (options_.ringbuf) {
      def.type = BPF_MAP_TYPE_RINGBUF;
      def.max_entries = options_.ringbuf_bytes;
    } else {
      def.type = BPF_MAP_TYPE_PERF_EVENT_ARRAY;
      def.key_size = 4;
      def.value_size = 4;
      def.max_entries = std::max<uint32_t>(options_.ncpus, 1);
    }
    out_.events_map = static_cast<int>(out_.maps.size());
    out_.events_use_ringbuf = options_.ringbuf;
    out_.maps.push_back(def);
  }
  return static_cast<uint32_t>(out_.events_map);
}

uint32_t ScriptState::internal_map(int& index, const MapDef& def) {
  if (index < 0) {
    index = static_cast<int>(out_.maps.size());
    out_.maps.push_back(def);
  }
  return static_cast<uint32_t>(index);
}

uint32_t ScriptState::start_time_map() {
  return internal_map(out_.start_time_map, MapDef{".start", BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, -1});
}

uint32_t ScriptState::lost_events_map() {
  return internal_map(out_.lost_events_map, MapDef{".lost", BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, -1});
}

uint32_t ScriptState::failed_updates_map() {
  uint32_t counters = static_cast<uint32_t>(std::max<size_t>(program_.info.maps.size(), 1));
  return internal_map(out_.failed_updates_map, MapDef{".mapfail", BPF_MAP_TYPE_ARRAY, 4, 8 * counters, 1, 0, -1});
}

uint32_t ScriptState::scratch_map(uint32_t size) {
  uint32_t index = internal_map(out_.scratch_map, MapDef{".scratch", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1, 0, -1});
  MapDef& def = out_.maps[index];
  def.value_size = std::max(def.value_size, (size + 7) / 8 * 8);
  return index;
}

uint32_t ScriptState::zero_map(uint32_t size) {
  int index = -1;
  for (size_t i = 0; i < out_.maps.size(); ++i)
    if (out_.maps[i].name == ".zero") index = static_cast<int>(i);
  if (index < 0) {
    index = static_cast<int>(out_.maps.size());
    out_.maps.push_back(MapDef{".zero", BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0, -1});
  }
  MapDef& def = out_.maps[index];
  def.value_size = std::max(def.value_size, (size + 7) / 8 * 8);
  return static_cast<uint32_t>(index);
}

uint64_t ScriptState::add_print_value(const Type& type) {
  out_.print_values.push_back(PrintValue{type});
  return out_.print_values.size() - 1;
}

Result<CompiledScript> compile(const lang::CheckedProgram& program,
                               const std::vector<std::vector<probes::AttachPoint>>& points_per_block,
                               const CompileOptions& options) {
  CompiledScript out;
  ScriptState state(program, options, out);
  const auto& blocks = program.ast.probes;
  if (points_per_block.size() != blocks.size())
    return make_error("compile script", options.source_name,
                      "got attach points for " + std::to_string(points_per_block.size()) + " probe blocks, the script has " +
                          std::to_string(blocks.size()));
  for (size_t b = 0; b < blocks.size(); ++b) {
    const std::vector<probes::AttachPoint>& points = points_per_block[b];
    // Empty only when config variable missing_probes let its probes be left out: the block
    // has nothing to run on, so it gets no program.
    if (points.empty()) continue;
    // One attach() call per provider: group the block's points by it, keeping their order.
    std::vector<std::vector<size_t>> groups;
    std::vector<const probes::Provider*> providers;
    for (size_t i = 0; i < points.size(); ++i) {
      const probes::Provider* p = &probes::provider_for(points[i].kind);
      auto it = std::find(providers.begin(), providers.end(), p);
      if (it == providers.end()) {
        providers.push_back(p);
        groups.push_back({i});
      } else {
        groups[it - providers.begin()].push_back(i);
      }
    }
    for (const std::vector<size_t>& group : groups) {
      std::vector<probes::AttachPoint> subset;
      for (size_t i : group) subset.push_back(points[i]);
      probes::LoadPlan plan = probes::load_plan(subset, options.attach);
      std::vector<std::vector<size_t>> programs;
      if (!plan.per_point && (plan.cookies || group.size() == 1 || shareable_without_cookies(program, subset.front())))
        programs.push_back(group);
      else
        for (size_t i : group) programs.push_back({i});
      programs = split_by_layout(programs, points, args_fields_used(blocks[b]));
      for (const std::vector<size_t>& serves : programs) {
        CompiledProgram prog;
        prog.block = b;
        prog.points = serves;
        prog.plan = plan.per_point ? probes::load_plan({&points[serves.front()], 1}, options.attach) : plan;
        ProgramTarget target{b, {}, prog.plan, out.point_names.size()};
        for (size_t i : serves) {
          target.points.push_back(&points[i]);
          out.point_names.push_back({points[i].name, points[i].func});
        }
        const probes::AttachPoint& first = points[serves.front()];
        prog.name = program_name(first);
        prog.description = first.name;
        if (serves.size() > 1) prog.description += " (+" + std::to_string(serves.size() - 1) + " more)";
        if (options.source) {
          lang::LineCol at = options.source->position(blocks[b].span.begin);
          prog.description += " (" + std::string(options.source->name_at(blocks[b].span.begin)) + ":" + std::to_string(at.line) + ")";
        }
        // First without r6 for the context (one register more for temporaries); again with it
        // when the context is read after the first instruction.
        ProgramGen gen(state, blocks[b], target, prog.code, false);
        Status s = gen.generate();
        if (s && gen.needs_context_register()) {
          prog.code = bpf::Builder();
          ProgramGen again(state, blocks[b], target, prog.code, true);
          s = again.generate();
        }
        if (!s) return s.error();
        out.programs.push_back(std::move(prog));
      }
    }
  }
  choose_map_allocation(out, options);
  return out;
}

}  // namespace rawprobe::codegen
