// uprobe:BIN:FUNC, uprobe:BIN:FUNC+OFF, uprobe:BIN:0xADDR, wildcards, library names and C++
// names; uretprobe:BIN:FUNC. The ELF work (symbol -> address -> segment -> file offset ->
// instruction-boundary check) is elf/resolve.h's; this file turns its sites into attach
// points, names them, and adds close-name suggestions when nothing matched.
#include <algorithm>

#include "elf/hex.h"
#include "elf/resolve.h"
#include "elf/symbol_match.h"
#include "engine/lang/suggest.h"
#include "engine/probes/providers.h"
#include "engine/probes/targets.h"
#include "engine/probes/uprobe_attach.h"
#include "engine/probes/uprobe_functions.h"

namespace rawprobe::probes {
namespace {

std::string function_part(const lang::ProbeSpec& spec) {
  return spec.quoted ? "\"" + spec.func + "\"" : spec.func;
}

// `func` as bpftrace's symbolizer names a function: C++ names demangled ("ns::f(int)").
std::string demangled_function(elf::Binary& bin, const elf::UprobeSite& site) {
  Result<const elf::SymbolTable*> table = bin.symbols();
  if (!table) return site.function;
  for (const elf::Symbol& s : (*table)->aliases_at(site.address))
    if (s.versioned_name() == site.function || s.name == site.function) return (*table)->demangled(s);
  return site.function;
}

// elf's "no function matches" plus the closest names, when a plain name was misspelt.
Error with_suggestions(Error error, const lang::ProbeSpec& spec, elf::Binary& bin) {
  if (spec.wildcard) return error;
  Result<const elf::SymbolTable*> table = bin.symbols();
  if (!table) return error;
  std::vector<std::string> names;
  for (const elf::Symbol& s : (*table)->functions()) names.emplace_back(s.name);
  // The name exists: the error is about probing it (an IFUNC, a refused instruction).
  if (std::find(names.begin(), names.end(), spec.func) != names.end()) return error;
  std::vector<std::string> close = lang::closest_names(spec.func, names);
  if (close.empty()) return error;
  std::string mean = "did you mean ";
  for (size_t i = 0; i < close.size() && i < 5; ++i) mean += (i ? ", '" : "'") + close[i] + "'";
  error.hint = mean + "?" + (error.hint.empty() ? "" : " (" + error.hint + ")");
  return error;
}

class UprobeProvider final : public UserProbeProvider {
 public:
  // BINARY:FUNCTION, BINARY:FUNCTION+OFF, BINARY:0xADDR, BINARY:"C++ name"
  Status parse(const std::vector<std::string>& p, lang::ProbeSpec& out) const override {
    const char* kind = lang::probe_kind_name(out.kind);
    if (p.size() < 3 || p[1].empty()) {
      return make_error(std::string(kind) + " needs a binary and a function: " + kind + ":BINARY:FUNCTION (e.g. " + kind + ":/bin/bash:readline)");
    }
    out.target = p[1];
    out.wildcard = lang::has_wildcard(out.target);
    std::string rest = lang::join_probe_parts(p, 2);
    uint64_t addr;
    if (rest.size() > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X') && lang::parse_probe_number(rest, addr)) {
      out.address = addr;
      out.has_address = true;
      return {};
    }
    if (Status st = lang::parse_probe_function(rest, out); !st) return st;
    if (out.kind == ProbeKind::Uretprobe && out.has_offset) {
      return make_error("uretprobe cannot take an offset: a return probe fires at the function's return");
    }
    return {};
  }

  Result<std::vector<AttachPoint>> expand(const lang::ProbeSpec& spec,
                                          const ExpandContext& ctx) const override {
    Result<std::vector<OpenedTarget>> targets = open_targets(spec.target, ctx.pid, false);
    if (!targets) return targets.error();
    std::vector<AttachPoint> points;
    for (const OpenedTarget& target : *targets) {
      Result<std::vector<AttachPoint>> found = expand_in(spec, ctx, target.file, *target.binary);
      if (!found) {
        if (targets->size() > 1) continue;  // a glob over files: others may hold it
        return found.error();
      }
      for (AttachPoint& p : *found) points.push_back(std::move(p));
    }
    if (points.empty())
      return make_error("function '" + function_part(spec) + "' not found in any file matching '" +
                            spec.target + "'",
                        spec.raw);
    return points;
  }

  Status list(const ListRequest& request, ListSink& sink) const override {
    return list_functions(request, sink);
  }

 private:
  static Result<std::vector<AttachPoint>> expand_in(const lang::ProbeSpec& spec,
                                                    const ExpandContext& ctx,
                                                    const TargetFile& target, elf::Binary& bin) {
    Result<const arch::Table*> table =
        process_arch(bin.file().machine(), bin.file().elf_class(), target.display);
    if (!table) return table.error();
    elf::ResolveOptions options;
    options.unsafe = ctx.unsafe;
    std::vector<elf::UprobeSite> sites;
    if (spec.has_address) {
      Result<elf::UprobeSite> site = elf::resolve_address(bin, spec.address, options);
      if (!site) return site.error();
      sites.push_back(std::move(*site));
    } else {
      Result<std::vector<elf::UprobeSite>> found =
          elf::resolve_function(bin, function_part(spec), spec.offset, options);
      if (!found) return with_suggestions(found.error(), spec, bin);
      sites = std::move(*found);
    }
    const char* kind = lang::probe_kind_name(spec.kind);
    std::vector<AttachPoint> points;
    for (elf::UprobeSite& site : sites) {
      AttachPoint p;
      p.kind = spec.kind;
      p.is_return = spec.kind == ProbeKind::Uretprobe;
      p.arch = *table;
      p.path = target.path;
      p.address = site.address;
      p.file_offset = site.file_offset;
      p.pid = ctx.pid;
      p.func = site.function.empty() ? elf::hex(site.address) : demangled_function(bin, site);
      // `probe` shows what was written, except that a wildcard or a quoted C++ name shows the
      // symbol it matched (mangled: bpftrace's `uprobe:/bin/x:_ZN2ns1fEi`).
      std::string what = spec.has_address                  ? elf::hex(spec.address)
                         : spec.wildcard || spec.quoted ? site.function
                                                        : function_part(spec);
      if (spec.has_offset) what += "+" + std::to_string(spec.offset);
      p.name = std::string(kind) + ":" + target.display + ":" + what;
      points.push_back(std::move(p));
    }
    return points;
  }
};

}  // namespace

const Provider& uprobe_provider() { return the_provider<UprobeProvider>(); }

}  // namespace rawprobe::probes
