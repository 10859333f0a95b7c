// compile() without a kernel: programs per block and per point, map definitions laid out as
// engine/output decodes them, instructions the bpfasm opcode table accepts (Builder::finish),
// source annotations, and clear errors where a script asks for what BPF cannot do.
#include <doctest/doctest.h>

#include "tests/skip.h"
#include "engine/driver/report.h"

#include <algorithm>
#include <linux/bpf.h>
#include <fstream>
#include <map>
#include <set>

#include "engine/codegen/codegen.h"
#include "engine/output/map_print.h"
#include "tests/unit/lang_fixture.h"

using namespace rawprobe;
using namespace rawprobe::codegen;

namespace {

std::string samples_dir() {
  const char* dir = std::getenv("RAWPROBE_SAMPLES");
  return dir && *dir ? dir : "build/samples";
}

std::string with_samples(std::string text) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"/tmp/read_rand", "read_rand"},
                                 {"/tmp/usdt_hello", "hello_usdt"}, {"/tmp/fun", "fun"}})
    for (size_t at; (at = text.find(from)) != std::string::npos;) text.replace(at, from.size(), samples_dir() + "/" + to);
  return text;
}

struct Compiled {
  std::unique_ptr<lang::SourceFile> source;
  lang::CheckedProgram program;
  std::vector<std::vector<probes::AttachPoint>> points;
  Result<CompiledScript> script = make_error("not compiled");
};

// Front end and compile. Points come from probes::expand, or `points` when given.
void compile_script(const std::string& text, Compiled& c, std::vector<std::vector<probes::AttachPoint>> points = {},
                    CompileOptions options = {}) {
  c.source = std::make_unique<lang::SourceFile>("test.bt", with_samples(text));
  static test::CapturedTracepoints catalog;
  lang::SemanticOptions sem;
  sem.tracepoints = &catalog;
  auto fe = lang::run_front_end(*c.source, sem);
  REQUIRE_MESSAGE(fe.ok, test::error_text(fe));
  c.program = std::move(fe.program);
  if (points.empty()) {
    for (const lang::ProbeBlock& b : c.program.ast.probes) {
      std::vector<probes::AttachPoint> block;
      for (const lang::ProbeSpec& s : b.specs) {
        auto e = probes::expand(s, {});
        REQUIRE_MESSAGE(e, (e ? "" : e.error().message()));
        block.insert(block.end(), e->begin(), e->end());
      }
      points.push_back(std::move(block));
    }
  }
  c.points = std::move(points);
  options.source = c.source.get();
  c.script = compile(c.program, c.points, options);
}

bool samples_built() { return std::ifstream(samples_dir() + "/fun").good(); }

probes::AttachPoint begin_point(const arch::Table* table = &arch::host()) {
  probes::AttachPoint p;
  p.kind = lang::ProbeKind::Uprobe;
  p.name = "uprobe:/bin/true:main";
  p.func = "main";
  p.arch = table;
  return p;
}

// A USDT point with one argument of the given spec.
probes::AttachPoint usdt_point(const std::string& spec) {
  probes::AttachPoint p = begin_point();
  p.kind = lang::ProbeKind::Usdt;
  p.name = "usdt:/bin/x:p:n";
  auto args = elf::parse_usdt_args(spec, arch::host());
  REQUIRE_MESSAGE(args, (args ? "" : args.error().message()));
  p.usdt_args.push_back({(*args)[0], 0});
  return p;
}

}  // namespace

TEST_CASE("codegen: the seed scripts compile to one program per block or point, all finishing") {
  if (!samples_built() || !test::tracefs_readable()) {
    RAWPROBE_SKIP("needs the samples (make samples) and a readable tracefs");
    return;
  }
  for (const char* name : {"read_rand_threads.bt", "read_rand_reads.bt", "fun_counts.bt", "hello_usdt.bt",
                           "syscall_read_sizes.bt"}) {
    CAPTURE(name);
    Compiled c;
    compile_script(test::read_text(std::string("samples/") + name), c);
    REQUIRE_MESSAGE(c.script, (c.script ? "" : c.script.error().message()));
    const CompiledScript& s = *c.script;
    // Every point of every block is served by exactly one program of that block.
    for (size_t b = 0; b < c.points.size(); ++b) {
      std::multiset<size_t> served;
      for (const CompiledProgram& p : s.programs)
        if (p.block == b) served.insert(p.points.begin(), p.points.end());
      CHECK(served.size() == c.points[b].size());
      CHECK(std::set<size_t>(served.begin(), served.end()).size() == c.points[b].size());
    }
    std::vector<int> fds(s.maps.size(), 3);
    for (const CompiledProgram& p : s.programs) {
      auto prog = p.code.finish(fds);
      REQUIRE_MESSAGE(prog, (prog ? "" : prog.error().message()));
      CHECK(!prog->annotations.empty());
      for (const bpf::Annotation& a : prog->annotations) CHECK(a.text.rfind("test.bt:", 0) == 0);
      CHECK(prog->insns.back().code == (bpf::op::JMP | bpf::op::EXIT));
    }
  }
}

TEST_CASE("codegen: aggregation maps are filled on update where the kernel allows it, except those a perf_event program touches") {
  const std::string text =
      "uprobe:/bin/true:main { @u[pid] = count(); @both = 1; @k[tid] = nsecs; } profile:hz:99 { @both = 2; @p[cpu] = count(); }";
  probes::AttachPoint profile;
  profile.kind = lang::ProbeKind::Profile;
  profile.name = "profile:hz:99";
  auto flags_by_name = [](const Compiled& c) {
    std::map<std::string, uint32_t> out;
    for (const MapDef& def : c.script->maps)
      if (def.user_map >= 0) out[c.program.info.maps[size_t(def.user_map)].name] = def.flags;
    return out;
  };
  CompileOptions on_demand;
  on_demand.hash_maps_on_demand = [] { return true; };
  Compiled c;
  compile_script(text, c, {{begin_point()}, {profile}}, on_demand);
  REQUIRE_MESSAGE(c.script, (c.script ? "" : c.script.error().message()));
  std::map<std::string, uint32_t> flags = flags_by_name(c);
  REQUIRE(flags.size() == 4);
  CHECK(flags["@u"] == BPF_F_NO_PREALLOC);
  CHECK(flags["@k"] == 0);     // a plain hash map: every update replaces its element
  CHECK(flags["@both"] == 0);  // written by the profile block too
  CHECK(flags["@p"] == 0);
  // Internal maps (the events buffer, ...) keep their own flags.
  for (const MapDef& def : c.script->maps)
    if (def.user_map < 0) CHECK(def.flags == 0);

  Compiled preallocated;
  compile_script(text, preallocated, {{begin_point()}, {profile}});
  REQUIRE(preallocated.script);
  for (const auto& entry : flags_by_name(preallocated)) {
    const std::string& name = entry.first;
    uint32_t f = entry.second;
    CAPTURE(name);
    CHECK(f == 0);
  }
}

TEST_CASE("codegen: user maps are defined as engine/output decodes them") {
  Compiled c;
  compile_script("uprobe:/bin/true:main { @n[1, \"ab\"] = 1; @c[comm] = count(); @k = count(); @s = sum(3); @h = hist(5); @l = lhist(3, 0, 50, 5);"
                 " @m = max(2); @t = (1, \"x\"); }",
                 c, {{begin_point()}});
  REQUIRE_MESSAGE(c.script, (c.script ? "" : c.script.error().message()));
  const auto& info = c.program.info;
  for (const MapDef& def : c.script->maps) {
    if (def.user_map < 0) continue;
    const lang::MapInfo& m = info.maps[def.user_map];
    CAPTURE(m.name);
    MapDesc desc{m.name, m.key, m.value, 1, {0, 50, 5}, false, {}};
    // Keys: output's C-struct layout (lang's packed offsets may differ); keyless: one u64,
    // except a count() without keys: a one-entry per-CPU array (u32 index), as bpftrace's.
    bool counter = m.key.empty() && m.value.kind == TypeKind::Count;
    CHECK(def.key_size == (counter ? 4u : m.key.empty() ? 8u : map_key_size(desc)));
    CHECK(def.value_size == map_slot_size(desc));
    bool aggregation = m.value.kind >= TypeKind::Count && m.value.kind <= TypeKind::LHist;
    CHECK(def.type == (counter       ? BPF_MAP_TYPE_PERCPU_ARRAY
                       : aggregation ? BPF_MAP_TYPE_PERCPU_HASH
                                     : BPF_MAP_TYPE_HASH));
    CHECK(def.max_entries == (counter ? 1u : 4096u));
  }
  // [u64, string[3]]: the C struct is 16 bytes where packing would give 11.
  const MapDef& n = c.script->maps[info.find_map("@n")];
  CHECK(n.key_size == layout_of({Type::integer(8, true), Type::string(3)}).size);
}

TEST_CASE("codegen: BPF limits give clear errors with the script position") {
  SUBCASE("stack arguments where rawprobe does not know the ABI") {
    const arch::Table* riscv = arch::by_name("riscv64");
    REQUIRE(riscv);
    Compiled c;
    std::string arg = "arg" + std::to_string(riscv->arg_regs.size());
    std::string script = "uprobe:/bin/true:main { @ = " + arg + "; }";
    compile_script(script, c, {{begin_point(riscv)}});
    REQUIRE(!c.script);
    // Shown as the driver shows it: the script line, with a caret under the argN.
    std::string shown = driver::render(c.script.error(), c.source.get());
    CHECK(shown.find("test.bt:1:" + std::to_string(script.find(arg) + 1) + ": error: ") == 0);
    CHECK(shown.find("stack") != std::string::npos);
    REQUIRE(c.script.error().at);
    CHECK(c.source->slice({c.script.error().at->begin, c.script.error().at->end}) == arg);
  }
  SUBCASE("more than 512 bytes of stack") {
    Compiled c;
    compile_script("uprobe:/bin/true:main { @[str(0), str(1), str(2), str(3), str(4), str(5), str(6), str(7), str(8)] = 1; }",
                   c, {{begin_point()}});
    REQUIRE(!c.script);
    CHECK(c.script.error().message().find("512") != std::string::npos);
  }
  SUBCASE("a USDT argument the probe does not have") {
    Compiled c;
    compile_script("usdt:/bin/x:p:n { @ = arg1; }", c, {{usdt_point("-4@%edi")}});
    REQUIRE(!c.script);
    CHECK(c.script.error().message().find("has 1 argument") != std::string::npos);
  }
  SUBCASE("a USDT argument in a vector register") {
    Compiled c;
    compile_script("usdt:/bin/x:p:n { @ = arg0; }", c, {{usdt_point("8@%xmm1")}});
    REQUIRE(!c.script);
    CHECK(c.script.error().message().find("xmm1") != std::string::npos);
  }
}
