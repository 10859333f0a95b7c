// Function calls: resolved through the registry (engine/lang/functions.def), then checked by
// the function's hook below or by the generic check. The stack and symbol functions are
// checked in semantic_stacks.cpp.
#include <algorithm>

#include "engine/base/layout.h"
#include "engine/base/type_names.h"
#include "engine/lang/semantic_internal.h"
#include "engine/lang/suggest.h"
#include "engine/output/printf_format.h"

namespace rawprobe::lang {

Checker::CheckHook Checker::check_hook(FunctionId id) {
  static const CheckHook hooks[] = {
      nullptr,  // FunctionId::None
#define FUNCTION(id, name, role, min, max, args, result, check, generate) check,
#include "engine/lang/functions.def"
#undef FUNCTION
  };
  return hooks[static_cast<size_t>(id)];
}

bool Checker::arg_count(Expr& e) {
  const FunctionInfo& f = function_info(e.function);
  size_t n = e.operands.size(), min = f.min_args, max = f.max_args;
  if (n >= min && n <= max) return true;
  std::string given = " (" + std::to_string(n) + " provided)";
  // bpftrace 0.17's words: "one argument", "2 arguments".
  std::string want = min == 1 ? "one argument" : std::to_string(min) + " arguments";
  if (max == 0) error(e.span, e.name + "() requires no arguments" + given);
  else if (min == max) error(e.span, e.name + "() requires " + want + given);
  else if (n < min) error(e.span, e.name + "() requires at least " + want + given);
  else error(e.span, e.name + "() takes up to " + std::to_string(max) + " arguments" + given);
  return false;
}

void Checker::call(Expr& e, Use use) {
  const FunctionInfo* f = find_function(e.name);
  if (!f) {
    error(e.span, "Unknown function: " + e.name + did_you_mean(e.name, function_names()));
    for (ExprPtr& a : e.operands) check(*a, Use::Value);
    return;
  }
  e.function = f->id;
  if (in_pinned_iterator()) pinned_iterator_call(e);
  if (f->role == FunctionRole::Aggregation && use != Use::MapValue)
    error(e.span, e.name + "() should be directly assigned to a map");
  if (f->role == FunctionRole::Action && f->result == TypeKind::None && use != Use::Statement)
    error(e.span, e.name + "() should not be used in an assignment or as a map key");
  if (CheckHook hook = check_hook(f->id)) return (this->*hook)(e);
  call_generic(e);
}

// Arity, then each argument against its ARGS kind (bpftrace 0.17's wording), then the
// Result as an 8-byte unsigned value.
void Checker::call_generic(Expr& e) {
  const FunctionInfo& f = function_info(e.function);
  if (!arg_count(e)) return;
  for (size_t i = 0; i < e.operands.size(); ++i) {
    Expr& a = *e.operands[i];
    check(a, Use::Value);
    if (a.type.kind == TypeKind::None) return;  // already reported
    ArgKind want = i < f.args.size() ? f.args[i] : ArgKind::Any;
    const char* kind = nullptr;
    if (want == ArgKind::Integer && !a.type.is_scalar()) kind = "integer";
    if (want == ArgKind::String && !a.type.is_string()) kind = "string";
    if (kind) {
      error(e.span, e.name + "() only supports " + kind + " arguments (" + argument_type_name(a.type) + " provided)");
      return;
    }
    if ((want == ArgKind::IntegerLiteral && a.kind != ExprKind::Integer) ||
        (want == ArgKind::StringLiteral && !a.is_literal_string())) {
      const char* literal = want == ArgKind::IntegerLiteral ? "a integer" : "a string";  // sic, as bpftrace
      error(e.span, e.name + "() expects " + literal + " literal (" + argument_type_name(a.type) + " provided)");
      return;
    }
  }
  if (f.result != TypeKind::None) e.type = Type{f.result, 8, false, {}};
}

void Checker::call_print(Expr& e) {
  if (!arg_count(e)) return;
  Expr& what = *e.operands[0];
  if (what.kind == ExprKind::Map && what.operands.empty()) {
    whole_map(what);
    what.type = info_.maps[what.map_id].value;
  } else {
    check(what, Use::Value);
    if (what.type.is_pointer())  // bpftrace 0.17's words: print(*p) prints what p points to
      error(e.span, type_name(what.type) + " type passed to print() is not printable");
  }
  for (size_t i = 1; i < e.operands.size(); ++i) {
    check(*e.operands[i], Use::Value);
    if (e.operands[i]->kind != ExprKind::Integer)
      error(e.operands[i]->span, "print() expects integer literals for top and div");
  }
}

void Checker::call_time(Expr& e) {
  if (!arg_count(e)) return;
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
}

void Checker::call_lhist(Expr& e) {
  call_aggregation(e);
  bool literals = e.operands.size() == 4;
  for (size_t i = 1; i < e.operands.size(); ++i)
    if (e.operands[i]->kind != ExprKind::Integer) {
      error(e.operands[i]->span, "lhist() expects integer literals for min, max and step");
      literals = false;
    }
  if (!literals) return;
  // The map's buckets are laid out from these (map_layout.h): a step below 1 or an empty
  // range has none. bpftrace 0.17's words.
  auto param = [&](size_t i) { return static_cast<int64_t>(e.operands[i]->int_value); };
  if (param(3) < 1) error(e.span, "lhist() step must be >= 1 (" + std::to_string(param(3)) + " provided)");
  else if (param(1) >= param(2))
    error(e.span, "lhist() min must be less than max (provided min " + std::to_string(param(1)) + " and max " +
                      std::to_string(param(2)) + ")");
}

void Checker::call_str(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) {
    check(*a, Use::Value);
    bool first = a.get() == e.operands[0].get();
    if (a->type.kind != TypeKind::None && !a->type.is_integer() && !(first && (a->type.is_string() || a->type.is_pointer())))
      error(a->span, "str() expects an integer or pointer argument (" + argument_type_name(a->type) + " provided)");
  }
  e.type = Type::string(opts_.strlen);
}

void Checker::call_aggregation(Expr& e) {
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) {
    check(*a, Use::Value);
    if (a->type.kind != TypeKind::None && !a->type.is_integer()) {
      error(e.span, e.name + "() only supports integer arguments (" + argument_type_name(a->type) + " provided)");
      return;
    }
  }
  TypeKind kind = function_info(e.function).result;
  bool is_signed = !e.operands.empty() && e.operands[0]->type.is_signed;
  e.type = Type{kind, 8, kind == TypeKind::Count ? false : is_signed, {}};
}

// delete(@m[k]), clear(@m), zero(@m).
void Checker::call_map_function(Expr& e) {
  const char* fn = e.name.c_str();
  bool keys_allowed = e.function == FunctionId::Delete;
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
  if (!arg_count(e)) return;
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  Expr& fmt = *e.operands[0];
  if (!fmt.is_literal_string()) {
    error(e.span, e.name + "() expects a string literal (" + argument_type_name(fmt.type) + " provided)");
    return;
  }
  std::vector<Type> stored;
  for (size_t i = 1; i < e.operands.size(); ++i) {
    const Type& t = e.operands[i]->type;
    if (t.kind == TypeKind::None) return;  // already reported
    // A pointer prints as the integer it is.
    stored.push_back(t.is_pointer() ? Type::integer(8, false) : widen_integer(t));
  }
  // Output's own checks: the runtime builds its formatter from this format and these types,
  // so what is accepted here cannot fail there.
  Result<PrintfFormat> format = PrintfFormat::parse(fmt.str);
  if (!format) {
    error(fmt.span, format.error().what + "; " + format.error().hint);
    return;
  }
  if (!buffer_conversions(e, *format, stored)) return;
  Result<PrintfFormatter> formatter = PrintfFormatter::make(std::move(*format), stored);
  if (!formatter) {
    error(e.span, formatter.error().message());  // bpftrace's wording, at the call as it puts it
    return;
  }
  if (in_pinned_iterator()) pinned_iterator_printf(e, stored);
  // The record { u64 id; args... }, laid out as code generation writes it.
  std::vector<Type> record = {Type::integer(kEventHeaderSize, false)};
  record.insert(record.end(), stored.begin(), stored.end());
  StructLayout layout = layout_of(record);
  PrintfInfo p{fmt.str, {}, layout.size, e.span, e.function};
  for (size_t i = 0; i < stored.size(); ++i) p.args.push_back({stored[i], layout.offsets[i + 1]});
  e.call_id = static_cast<int>(info_.printfs.size());
  info_.printfs.push_back(std::move(p));
}

}  // namespace rawprobe::lang
