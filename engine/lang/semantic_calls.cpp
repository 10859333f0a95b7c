// Function calls: printf, print, the map functions and aggregations, str, time, exit, and the
// symbol/stack functions whose output comes with the next issue (typed here already).
#include <algorithm>

#include "engine/base/layout.h"
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"
#include "engine/lang/suggest.h"
#include "engine/output/printf_format.h"

namespace rawprobe::lang {
namespace {

const std::vector<std::string> kFunctions = {
    "printf", "print", "delete", "clear", "zero", "count", "sum", "min", "max", "avg", "stats",
    "hist", "lhist", "str", "time", "exit", "ustack", "kstack", "usym", "ksym"};

// Functions whose only effect is an action: they produce no value.
bool is_action(const std::string& n) {
  return n == "printf" || n == "print" || n == "delete" || n == "clear" || n == "zero" || n == "exit" || n == "time";
}

}  // namespace

bool Checker::arg_count(Expr& e, size_t min, size_t max) {
  size_t n = e.operands.size();
  if (n >= min && n <= max) return true;
  std::string given = " (" + std::to_string(n) + " provided)";
  if (max == 0) error(e.span, e.name + "() requires no arguments" + given);
  else if (min == max) error(e.span, e.name + "() requires " + std::to_string(min) + " argument" + (min == 1 ? "" : "s") + given);
  else if (n < min) error(e.span, e.name + "() requires at least " + std::to_string(min) + " argument" + (min == 1 ? "" : "s") + given);
  else error(e.span, e.name + "() takes up to " + std::to_string(max) + " arguments" + given);
  return false;
}

void Checker::call(Expr& e, Use use) {
  const std::string& n = e.name;
  bool aggregation = n == "count" || n == "sum" || n == "min" || n == "max" || n == "avg" || n == "stats" ||
                     n == "hist" || n == "lhist";
  if (std::find(kFunctions.begin(), kFunctions.end(), n) == kFunctions.end()) {
    error(e.span, "Unknown function: " + n + did_you_mean(n, kFunctions));
    for (ExprPtr& a : e.operands) check(*a, Use::Value);
    return;
  }
  if (aggregation && use != Use::MapValue) error(e.span, n + "() should be directly assigned to a map");
  if (is_action(n) && use != Use::Statement)
    error(e.span, n + "() should not be used in an assignment or as a map key");

  if (n == "printf") return call_printf(e);
  if (n == "print") {
    if (!arg_count(e, 1, 3)) return;
    Expr& what = *e.operands[0];
    if (what.kind == ExprKind::Map && what.operands.empty()) {
      whole_map(what);
      what.type = info_.maps[what.map_id].value;
    } else {
      check(what, Use::Value);
    }
    for (size_t i = 1; i < e.operands.size(); ++i) {
      check(*e.operands[i], Use::Value);
      if (e.operands[i]->kind != ExprKind::Integer)
        error(e.operands[i]->span, "print() expects integer literals for top and div");
    }
    return;
  }
  if (n == "delete") return call_map_function(e, "delete", true);
  if (n == "clear" || n == "zero") return call_map_function(e, n.c_str(), false);
  if (n == "exit") {
    arg_count(e, 0, 0);
    return;
  }
  if (n == "time") {
    if (!arg_count(e, 0, 1)) return;
    std::string format = "%H:%M:%S\n";  // bpftrace's default
    if (!e.operands.empty()) {
      Expr& f = *e.operands[0];
      check(f, Use::Value);
      if (!f.is_literal_string()) {
        error(e.span, "time() expects a string literal (" + argument_type_name(f.type) + " provided)");
        return;
      }
      format = f.str;
    }
    e.call_id = static_cast<int>(info_.time_formats.size());
    info_.time_formats.push_back(format);
    return;
  }
  if (n == "count") return call_aggregation(e, TypeKind::Count, 0);
  if (n == "sum") return call_aggregation(e, TypeKind::Sum, 1);
  if (n == "min") return call_aggregation(e, TypeKind::Min, 1);
  if (n == "max") return call_aggregation(e, TypeKind::Max, 1);
  if (n == "avg") return call_aggregation(e, TypeKind::Avg, 1);
  if (n == "stats") return call_aggregation(e, TypeKind::Stats, 1);
  if (n == "hist") return call_aggregation(e, TypeKind::Hist, 1);
  if (n == "lhist") {
    call_aggregation(e, TypeKind::LHist, 4);
    for (size_t i = 1; i < e.operands.size(); ++i)
      if (e.operands[i]->kind != ExprKind::Integer)
        error(e.operands[i]->span, "lhist() expects integer literals for min, max and step");
    return;
  }
  if (n == "str") {
    if (!arg_count(e, 1, 2)) return;
    for (ExprPtr& a : e.operands) {
      check(*a, Use::Value);
      if (a->type.kind != TypeKind::None && !a->type.is_integer() && !(a->type.is_string() && a.get() == e.operands[0].get()))
        error(a->span, "str() expects an integer or pointer argument (" + argument_type_name(a->type) + " provided)");
    }
    e.type = Type::string(opts_.strlen);
    return;
  }
  if (n == "ustack" || n == "kstack") {
    if (!arg_count(e, 0, 2)) return;
    for (ExprPtr& a : e.operands) check(*a, Use::Value);
    // bpftrace: a stack id plus, for user stacks, the pid and a probe id.
    e.type = n == "ustack" ? Type{TypeKind::UStack, 16, false, {}} : Type{TypeKind::KStack, 8, false, {}};
    return;
  }
  // usym / ksym
  if (!arg_count(e, 1, 1)) return;
  check(*e.operands[0], Use::Value);
  if (e.operands[0]->type.kind != TypeKind::None && !e.operands[0]->type.is_integer()) {
    error(e.span, n + "() expects an integer address (" + argument_type_name(e.operands[0]->type) + " provided)");
    return;
  }
  e.type = n == "usym" ? Type{TypeKind::USym, 16, false, {}} : Type{TypeKind::KSym, 8, false, {}};
}

void Checker::call_aggregation(Expr& e, TypeKind kind, size_t nargs) {
  if (!arg_count(e, nargs, nargs)) return;
  for (ExprPtr& a : e.operands) {
    check(*a, Use::Value);
    if (a->type.kind != TypeKind::None && !a->type.is_integer()) {
      error(e.span, e.name + "() only supports integer arguments (" + argument_type_name(a->type) + " provided)");
      return;
    }
  }
  bool is_signed = nargs > 0 && e.operands[0]->type.is_signed;
  e.type = Type{kind, 8, kind == TypeKind::Count ? false : is_signed, {}};
}

void Checker::call_map_function(Expr& e, const char* fn, bool keys_allowed) {
  if (e.operands.size() != 1 || e.operands[0]->kind != ExprKind::Map) {
    for (ExprPtr& a : e.operands) check(*a, Use::Value);
    error(e.span, std::string(fn) + "() expects a map to be provided");
    return;
  }
  Expr& m = *e.operands[0];
  if (!keys_allowed && !m.operands.empty()) {
    error(e.span, std::string("The map passed to ") + fn + "() should not be indexed by a key");
    return;
  }
  bool first_use = info_.find_map(m.name) < 0;
  MapInfo* info = keys_allowed ? map_for(m, false) : whole_map(m);
  if (first_use) info->first_use = e.span;  // "Undefined map" then points at the call, as in bpftrace
  m.type = info->value;
  if (keys_allowed && m.operands.empty() && !info->key.empty())
    error(e.span, std::string(fn) + "() needs the key of the element to remove: " + fn + "(" + m.name + "[...])");
}

void Checker::call_printf(Expr& e) {
  if (e.operands.empty()) {
    error(e.span, "printf() requires at least 1 argument (0 provided)");
    return;
  }
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  Expr& fmt = *e.operands[0];
  if (!fmt.is_literal_string()) {
    error(e.span, "printf() expects a string literal (" + argument_type_name(fmt.type) + " provided)");
    return;
  }
  std::vector<Type> stored;
  for (size_t i = 1; i < e.operands.size(); ++i) {
    const Type& t = e.operands[i]->type;
    if (t.kind == TypeKind::None) return;  // already reported
    stored.push_back(widen_integer(t));
  }
  // Output's own checks: the runtime builds its formatter from this format and these types,
  // so what is accepted here cannot fail there.
  Result<PrintfFormat> format = PrintfFormat::parse(fmt.str);
  if (!format) {
    error(fmt.span, format.error().what + "; " + format.error().hint);
    return;
  }
  Result<PrintfFormatter> formatter = PrintfFormatter::make(std::move(*format), stored);
  if (!formatter) {
    error(e.span, formatter.error().message());  // bpftrace's wording, at the call as it puts it
    return;
  }
  // The record { u64 id; args... }, laid out as code generation writes it.
  std::vector<Type> record = {Type::integer(kEventHeaderSize, false)};
  record.insert(record.end(), stored.begin(), stored.end());
  StructLayout layout = layout_of(record);
  PrintfInfo p{fmt.str, {}, layout.size, e.span};
  for (size_t i = 0; i < stored.size(); ++i) p.args.push_back({stored[i], layout.offsets[i + 1]});
  e.call_id = static_cast<int>(info_.printfs.size());
  info_.printfs.push_back(std::move(p));
}

}  // namespace rawprobe::lang
