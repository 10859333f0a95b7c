// uprobe `args->NAME` (or `args.NAME`): a function parameter by name, typed from the DWARF of
// the probed binary. bpftrace 0.17 passes parameter N in argument register N, so
// `args->NAME` becomes a cast of argN to the parameter's type: an integer narrower than a
// register is sign- or zero-extended as C would, a pointer reads as that pointer.
#include <algorithm>

#include "engine/dwarf/function_params.h"
#include "engine/lang/semantic_internal.h"
#include "engine/lang/suggest.h"
#include "engine/probes/targets.h"

namespace rawprobe::lang {
namespace {

bool same_params(const std::vector<dwarf::FunctionParam>& a, const std::vector<dwarf::FunctionParam>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const dwarf::FunctionParam& x, const dwarf::FunctionParam& y) {
    return x.name == y.name && x.spelling == y.spelling;
  });
}

}  // namespace

const std::vector<dwarf::FunctionParam>* Checker::uprobe_params(const ProbeSpec& spec) {
  if (spec.wildcard || spec.has_address || spec.func.empty()) {
    error(spec.span, "args->NAME needs the DWARF of one function: name it in " + spec.canonical() +
                         " (not a wildcard or an address), or read the parameters as arg0, arg1, ...");
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
  std::string key = files->front().path + '\0' + spec.func;
  auto it = dwarf_params_.find(key);
  if (it == dwarf_params_.end()) {
    auto params = dwarf::function_params(files->front().path, spec.func, &c_types());
    if (!params) {
      error(spec.span, diagnostic_message(params.error()));
      return nullptr;
    }
    it = dwarf_params_.emplace(key, std::move(*params)).first;
  }
  return &it->second;
}

bool Checker::uprobe_field(Expr& e) {
  if (!all_specs([](ProbeKind k) { return k == ProbeKind::Uprobe; })) return false;
  const std::vector<dwarf::FunctionParam>* params = nullptr;
  for (const ProbeSpec& spec : probe_->specs) {
    const std::vector<dwarf::FunctionParam>* these = uprobe_params(spec);
    if (!these) return true;
    if (params && !same_params(*params, *these)) {
      error(spec.span, "Probe has attach points with mixed arguments");  // bpftrace 0.17's words and place
      return true;
    }
    params = these;
  }
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
