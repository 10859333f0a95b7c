// uprobe `args->NAME` (or `args.NAME`): a function parameter by name, typed from the DWARF of
// the probed binary. bpftrace 0.17 passes parameter N in argument register N, so
// `args->NAME` becomes a cast of argN to the parameter's type: an integer narrower than a
// register is sign- or zero-extended as C would, a pointer reads as that pointer.
//
// A block over several functions (`uprobe:BIN:f*`, `uprobe:BIN:f,uprobe:BIN:g`) reads them
// all through one program, as bpftrace 0.17 does: it takes the parameters of the first
// function in name order, and every other function must have parameters of the same names
// (types and order are not compared, as there), else the attach point that brings the
// difference gets "Probe has attach points with mixed arguments". A function the DWARF does
// not describe has no parameters, so it differs from one that has some.
#include <algorithm>
#include <set>

#include "elf/symbol_match.h"
#include "engine/dwarf/function_params.h"
#include "engine/lang/semantic_internal.h"
#include "engine/lang/suggest.h"
#include "engine/probes/targets.h"

namespace rawprobe::lang {
namespace {

using Params = std::vector<dwarf::FunctionParam>;
const Params kNoParams;  // a function the DWARF does not describe

// bpftrace 0.17 keeps a function's parameters in a map by name and compares the keys.
bool same_names(const Params& a, const Params& b) {
  std::multiset<std::string> x, y;
  for (const dwarf::FunctionParam& p : a) x.insert(p.name);
  for (const dwarf::FunctionParam& p : b) y.insert(p.name);
  return x == y;
}

// The functions a wildcard attach point expands to in `path`, each once, in name order.
Result<std::set<std::string>> matched_functions(const std::string& path, const ProbeSpec& spec) {
  Result<std::shared_ptr<elf::Binary>> bin = probes::open_binary(path);
  if (!bin) return bin.error();
  Result<const elf::SymbolTable*> table = (*bin)->symbols();
  if (!table) return table.error();
  std::set<std::string> names;
  for (const elf::Symbol* s : elf::find_functions(**table, elf::parse_symbol_query(spec.func))) names.emplace(s->name);
  return names;
}

}  // namespace

// The parameters args->NAME reads at one attach point; for a wildcard, the first matched
// function's, with `mixed` set (and reported) when another one's names differ.
const Params* Checker::uprobe_params(const ProbeSpec& spec, bool& mixed) {
  if (spec.has_address || spec.func.empty()) {
    error(spec.span, "args->NAME needs the DWARF of a function: name it in " + spec.canonical() +
                         " (not an address), or read the parameters as arg0, arg1, ...");
    return nullptr;
  }
  auto files = probes::resolve_targets(spec.target, opts_.pid);
  if (!files) {
    error(spec.span, diagnostic_message(files.error(), {spec.raw, spec.canonical()}));
    return nullptr;
  }
  if (files->size() != 1) {
    error(spec.span, "args->NAME needs the DWARF of one binary, and " + spec.target + " names " +
                         std::to_string(files->size()) + " files: name one of them");
    return nullptr;
  }
  const std::string& path = files->front().path;
  std::string func = spec.func;
  // Every function's parameter names, read in one walk of the file's DWARF.
  auto all_params = [&]() -> const std::map<std::string, Params, std::less<>>* {
    auto all = dwarf_all_params_.find(path);
    if (all == dwarf_all_params_.end()) {
      auto read = dwarf::all_function_params(path);
      if (!read) {
        error(spec.span, diagnostic_message(probes::with_file_names(read.error())));
        return nullptr;
      }
      all = dwarf_all_params_.emplace(path, std::move(*read)).first;
    }
    return &all->second;
  };
  if (lang::has_wildcard(spec.func)) {
    const auto* all = all_params();
    if (!all) return nullptr;
    auto names = matched_functions(path, spec);
    if (!names) {
      error(spec.span, diagnostic_message(names.error(), {spec.raw, spec.canonical()}));
      return nullptr;
    }
    if (names->empty()) return &kNoParams;  // attaching reports that nothing matched
    auto params_of = [&](const std::string& name) -> const Params& {
      auto it = all->find(name);
      return it == all->end() ? kNoParams : it->second;
    };
    func = *names->begin();
    for (const std::string& name : *names) {
      if (same_names(params_of(func), params_of(name))) continue;
      error(spec.span, "Probe has attach points with mixed arguments");  // bpftrace 0.17's words and place
      mixed = true;
      break;
    }
    if (!all->count(func)) return &kNoParams;
  }
  std::string key = path + '\0' + func;
  auto it = dwarf_params_.find(key);
  if (it == dwarf_params_.end()) {
    auto params = dwarf::function_params(path, func, &c_types());
    if (!params) {
      // Beside other attach points, a function the DWARF does not describe has no
      // parameters, which differ from theirs (bpftrace 0.17's "mixed arguments"); alone,
      // rawprobe says why args has nothing.
      if (probe_->specs.size() > 1) {
        const auto* all = all_params();
        if (!all) return nullptr;  // reported
        if (!all->count(func)) return &kNoParams;
      }
      error(spec.span, diagnostic_message(probes::with_file_names(params.error())));
      return nullptr;
    }
    it = dwarf_params_.emplace(key, std::move(*params)).first;
  }
  return &it->second;
}

bool Checker::uprobe_field(Expr& e) {
  if (!all_specs([](ProbeKind k) { return k == ProbeKind::Uprobe; })) return false;
  const Params* params = nullptr;
  bool failed = false;
  for (const ProbeSpec& spec : probe_->specs) {
    bool mixed = false;
    const Params* these = uprobe_params(spec, mixed);
    if (!these) return true;
    failed |= mixed;
    if (!params) {
      params = these;
    } else if (!mixed && !same_names(*params, *these)) {
      error(spec.span, "Probe has attach points with mixed arguments");  // bpftrace 0.17's words and place
      failed = true;
    }
  }
  if (failed) return true;
  auto it = std::find_if(params->begin(), params->end(), [&](const dwarf::FunctionParam& p) { return p.name == e.name; });
  if (it == params->end()) {
    std::vector<std::string> names;
    for (const dwarf::FunctionParam& p : *params) names.push_back(p.name);
    error(e.span, "Can't find function parameter " + e.name + did_you_mean(e.name, names));  // bpftrace 0.17's words
    return true;
  }
  ctypes::CTypeRef t = ctypes::strip_typedefs(it->type);
  bool integer = t && (t->kind == ctypes::CKind::Int || t->kind == ctypes::CKind::Enum);
  if (!t || !(integer || t->kind == ctypes::CKind::Pointer)) {
    error(e.span, e.name + " has unsupported type (" + it->spelling +
                      "): only integer and pointer parameters can be read, since they are the ones a "
                      "register holds whole");
    return true;
  }
  Type type = c_value(it->type, true, e.span);
  if (type.kind == TypeKind::None) return true;
  auto reg = std::make_unique<Expr>();
  reg->kind = ExprKind::Builtin;
  reg->span = e.span;
  reg->name = "arg" + std::to_string(it - params->begin());
  check(*reg, Use::Value);
  if (reg->type.kind == TypeKind::None) return true;
  // A cast of argN, which later passes check again as the cast it now is.
  e.operands.clear();
  e.name.clear();
  e.kind = ExprKind::Cast;
  e.cast_type = type;
  e.type = type;
  e.operands.push_back(std::move(reg));
  return true;
}

}  // namespace rawprobe::lang
