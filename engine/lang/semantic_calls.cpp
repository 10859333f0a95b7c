// Function calls: printf, print, the map functions and aggregations, str, time, exit, and the
// symbol/stack functions whose output comes with the next issue (typed here already).
#include <algorithm>

#include "engine/lang/layout.h"
#include "engine/lang/semantic_internal.h"
#include "engine/lang/suggest.h"
#include "engine/lang/type_names.h"

namespace rawprobe::lang {
namespace {

const std::vector<std::string> kFunctions = {
    "printf", "print", "delete", "clear", "zero", "count", "sum", "min", "max", "avg", "stats",
    "hist", "lhist", "str", "time", "exit", "ustack", "kstack", "usym", "ksym"};

// Functions whose only effect is an action: they produce no value.
bool is_action(const std::string& n) {
  return n == "printf" || n == "print" || n == "delete" || n == "clear" || n == "zero" || n == "exit" || n == "time";
}

std::string supplied(const Type& t) {
  if (t.is_integer()) return "integer";
  if (t.is_string()) return "string";
  return type_name(t);
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
      map_for(what, false);
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
        error(e.span, "time() expects a string literal (" + supplied(f.type) + " provided)");
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
      if (a->type.kind != TypeKind::None && !is_integral(a->type) && !(a->type.is_string() && a.get() == e.operands[0].get()))
        error(a->span, "str() expects an integer or pointer argument (" + supplied(a->type) + " provided)");
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
  if (e.operands[0]->type.kind != TypeKind::None && !is_integral(e.operands[0]->type)) {
    error(e.span, n + "() expects an integer address (" + supplied(e.operands[0]->type) + " provided)");
    return;
  }
  e.type = n == "usym" ? Type{TypeKind::USym, 16, false, {}} : Type{TypeKind::KSym, 8, false, {}};
}

void Checker::call_aggregation(Expr& e, TypeKind kind, size_t nargs) {
  if (!arg_count(e, nargs, nargs)) return;
  for (ExprPtr& a : e.operands) {
    check(*a, Use::Value);
    if (a->type.kind != TypeKind::None && !is_integral(a->type)) {
      error(e.span, e.name + "() only supports integer arguments (" + supplied(a->type) + " provided)");
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
  MapInfo* info = map_for(m, false);
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
    error(e.span, "printf() expects a string literal (" + supplied(fmt.type) + " provided)");
    return;
  }
  PrintfInfo p;
  p.format = fmt.str;
  p.span = e.span;
  p.conversions = parse_printf_format(fmt.str);
  size_t given = e.operands.size() - 1;
  if (given < p.conversions.size()) {
    error(e.span, "printf: Not enough arguments for format string (" + std::to_string(given) + " supplied, " +
                      std::to_string(p.conversions.size()) + " expected)");
    return;
  }
  if (given > p.conversions.size()) {
    error(e.span, "printf: Too many arguments for format string (" + std::to_string(given) + " supplied, " +
                      std::to_string(p.conversions.size()) + " expected)");
    return;
  }
  std::vector<Type> stored;
  for (size_t i = 0; i < given; ++i) {
    const FormatConversion& c = p.conversions[i];
    const Type& t = e.operands[i + 1]->type;
    if (t.kind == TypeKind::None) return;  // already reported
    bool wants_string = c.cls == ConvClass::String;
    bool ok = wants_string ? !is_integral(t) : is_integral(t);
    if (!ok) {
      error(e.span, "printf: %" + std::string(1, c.conversion) + " specifier expects a value of type " +
                        (wants_string ? "string" : "integer") + " (" + supplied(t) + " supplied)");
      return;
    }
    stored.push_back(widen_integer(t));
  }
  // { u64 id; args } with C alignment (layout.h).
  Layout l = c_struct_layout(stored, 8, 8);
  for (size_t i = 0; i < stored.size(); ++i) p.args.push_back({stored[i], l.offsets[i]});
  p.record_size = l.size;
  e.call_id = static_cast<int>(info_.printfs.size());
  info_.printfs.push_back(std::move(p));
}

}  // namespace rawprobe::lang
