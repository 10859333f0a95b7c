// Shared by the codegen kernel tests: a script through the front end, probe expansion and
// compile(), then its maps created and every program finished and loaded into this kernel
// (the verifier is the oracle), and optionally attached.
#pragma once
#include <doctest/doctest.h>

#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bpfasm/print.h"
#include "engine/codegen/codegen.h"
#include "engine/driver/report.h"
#include "engine/lang/preprocess.h"
#include "engine/probes/provider.h"
#include "engine/runtime/script_maps.h"
#include "engine/sys/bpf_map.h"
#include "engine/sys/bpf_prog.h"
#include "tests/kernel/sys_support.h"
#include "tests/unit/lang_fixture.h"

namespace rawprobe::codegen::ktest {

// The seed's paths replaced by the built samples.
inline std::string with_samples(std::string text) {
  const std::pair<const char*, const char*> paths[] = {
      {"/tmp/read_rand", "read_rand"}, {"/tmp/usdt_hello", "hello_usdt"}, {"/tmp/fun", "fun"},
      {"/tmp/struct_arg", "struct_arg"},
      {"USDT_ARGS_O2", "elf/usdt_args_O2"}, {"USDT_ARGS_O0", "elf/usdt_args_O0"}};
  for (const auto& [from, to] : paths) {
    std::string path = sys::ktest::sample_path(to);
    for (size_t at; (at = text.find(from)) != std::string::npos;) text.replace(at, std::string(from).size(), path);
  }
  return text;
}

struct Compiled {
  std::unique_ptr<lang::SourceFile> source;
  lang::CheckedProgram program;
  std::vector<std::vector<probes::AttachPoint>> points;
  CompiledScript script;
};

// Preprocess + front end + expand + compile, as a run does; the error text on failure (empty
// on success). `path` is where the script is, for the files it imports.
inline std::string compile_text(const std::string& text, Compiled& out, CompileOptions options = {},
                                const std::string& path = "test.bt") {
  lang::PreprocessOptions pp;
  pp.have_btf = lang::kernel_has_btf();
  lang::PreprocessResult preprocessed = lang::preprocess(path, with_samples(text), pp);
  if (!preprocessed.ok) return "preprocess: " + driver::render(preprocessed.diagnostics);
  out.source = std::make_unique<lang::SourceFile>(std::move(preprocessed.source));
  lang::SemanticOptions sem;
  static test::CapturedTracepoints catalog;
  sem.tracepoints = &catalog;
  lang::FrontEndResult fe = lang::run_front_end(*out.source, sem);
  if (!fe.ok) return "front end: " + driver::render(fe.diagnostics);
  out.program = std::move(fe.program);
  for (const lang::ProbeBlock& block : out.program.ast.probes) {
    std::vector<probes::AttachPoint> points;
    for (const lang::ProbeSpec& spec : block.specs) {
      auto expanded = probes::expand(spec, {});
      if (!expanded) return "expand " + spec.raw + ": " + expanded.error().message();
      points.insert(points.end(), expanded->begin(), expanded->end());
    }
    out.points.push_back(std::move(points));
  }
  options.source = out.source.get();
  options.source_name = "test.bt";
  auto script = compile(out.program, out.points, options);
  if (!script) return "compile: " + driver::render(script.error(), out.source.get());
  out.script = std::move(*script);
  return {};
}

struct Loaded {
  std::vector<sys::Fd> maps;
  std::vector<int> map_fds;
  std::vector<sys::Fd> progs;
  std::vector<size_t> xlated_slots;  // per program, what we handed the kernel
};

// Creates the maps and loads every program; the error text (verifier log tail) on failure.
inline std::string load(const CompiledScript& script, Loaded& out) {
  for (const MapDef& def : script.maps) {
    sys::MapSpec spec{def.type, def.key_size, def.value_size, def.max_entries, def.flags, kernel_object_name(def.name)};
    auto fd = sys::map_create(spec);
    if (!fd) return "create map " + def.name + ": " + fd.error().message();
    out.map_fds.push_back(fd->get());
    out.maps.push_back(std::move(*fd));
  }
  for (const CompiledProgram& p : script.programs) {
    auto program = p.code.finish(out.map_fds);
    if (!program) return p.description + ": finish: " + program.error().message();
    std::vector<bpf::Insn> slots = program->slots();
    sys::ProgSpec spec;
    spec.type = probes::kernel_prog_type(p.plan.type);
    spec.insns = slots;
    spec.name = p.name;
    spec.expected_attach_type = p.plan.expected_attach_type;
    auto fd = sys::prog_load(spec);
    if (!fd) {
      std::string log = fd.error().detail;
      if (log.size() > 3000) log = "..." + log.substr(log.size() - 3000);
      return p.description + ": " + fd.error().message() + "\n" + log;
    }
    out.xlated_slots.push_back(slots.size());
    out.progs.push_back(std::move(*fd));
  }
  return {};
}

// Possible CPUs (what per-CPU map values are sized by), from sysfs "0-N".
inline uint32_t possible_cpus() {
  std::string text = test::read_text("/sys/devices/system/cpu/possible");
  size_t dash = text.find('-');
  return dash == std::string::npos ? 1 : static_cast<uint32_t>(std::stoul(text.substr(dash + 1)) + 1);
}

// Every entry of a map as (key bytes, value bytes); per-CPU values summed as u64 words.
inline std::vector<std::pair<std::vector<uint8_t>, std::vector<uint64_t>>> dump_map(int fd, const MapDef& def,
                                                                                    uint32_t ncpus) {
  std::vector<std::pair<std::vector<uint8_t>, std::vector<uint64_t>>> out;
  bool per_cpu = runtime::is_per_cpu_map(def.type);
  uint32_t slot = (def.value_size + 7) / 8 * 8;
  std::vector<uint8_t> key(def.key_size), next(def.key_size), value(per_cpu ? slot * ncpus : slot);
  const void* prev = nullptr;
  while (true) {
    auto more = sys::map_next_key(fd, prev, next.data());
    if (!more || !*more) break;
    key = next;
    prev = key.data();
    auto found = sys::map_lookup(fd, key.data(), value.data());
    if (!found || !*found) continue;
    std::vector<uint64_t> words(slot / 8, 0);
    for (uint32_t cpu = 0; cpu < (per_cpu ? ncpus : 1); ++cpu)
      for (size_t w = 0; w < words.size(); ++w) {
        uint64_t v;
        std::memcpy(&v, value.data() + cpu * slot + w * 8, 8);
        words[w] += v;
      }
    out.emplace_back(key, words);
  }
  return out;
}

}  // namespace rawprobe::codegen::ktest
