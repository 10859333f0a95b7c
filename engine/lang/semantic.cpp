#include <algorithm>
#include <cctype>

#include "engine/base/layout.h"
#include "engine/base/type_names.h"
#include "engine/lang/map_layout.h"
#include "engine/lang/semantic_internal.h"

namespace rawprobe::lang {
namespace {

// Whether a value of type `b` may be stored where `a` is (same shape; integer widths and
// string lengths may differ, as bpftrace allows).
bool compatible(const Type& a, const Type& b) {
  if (a.is_integer() && b.is_integer()) return true;
  if (a.kind != b.kind) return false;
  // C values: the same C type (a pointer to another type, or another struct, is not).
  if (a.is_pointer() || a.in_memory()) return a.c_name == b.c_name;
  if (a.kind == TypeKind::Tuple) {
    if (a.fields.size() != b.fields.size() || a.field_names != b.field_names) return false;
    for (size_t i = 0; i < a.fields.size(); ++i)
      if (!compatible(a.fields[i], b.fields[i])) return false;
  }
  return true;
}

// `a` grown to hold `b` too (the longer string).
Type merged(const Type& a, const Type& b) {
  Type t = a;
  // A variable given both a bool and an integer (0.17's `$found = 0; ... $found = $a == $b`)
  // holds integers.
  if (a.is_bool != b.is_bool) t.is_bool = false;
  if (a.is_string()) t.size = std::max(a.size, b.size);
  if (a.kind == TypeKind::Tuple)
    for (size_t i = 0; i < t.fields.size(); ++i) t.fields[i] = merged(a.fields[i], b.fields[i]);
  return t;
}

std::string type_list(const std::vector<Type>& types) {
  std::string s = "[";
  for (size_t i = 0; i < types.size(); ++i) s += (i ? ", " : "") + type_name(types[i]);
  return s + "]";
}

// The script's own spelling of variable names in a message: block scoping (scopes.h) names
// the second and later variables of one name "$x@2" inside, which the user never wrote.
std::string user_spelling(std::string message) {
  std::string out;
  for (size_t i = 0; i < message.size(); ++i) {
    size_t j = i + 1;
    if (message[i] == '@' && i > 0 && j < message.size() && std::isdigit(static_cast<unsigned char>(message[j]))) {
      size_t k = i;  // the name before it must be a variable's: $ then word characters
      while (k > 0 && (std::isalnum(static_cast<unsigned char>(message[k - 1])) || message[k - 1] == '_')) --k;
      if (k > 0 && message[k - 1] == '$') {
        while (j < message.size() && std::isdigit(static_cast<unsigned char>(message[j]))) ++j;
        i = j - 1;
        continue;
      }
    }
    out += message[i];
  }
  return out;
}

}  // namespace

int ProgramInfo::find_map(const std::string& name) const {
  for (size_t i = 0; i < maps.size(); ++i)
    if (maps[i].name == name) return static_cast<int>(i);
  return -1;
}

void Checker::error(Span span, std::string message) {
  if (final_) diags_.error(span, user_spelling(std::move(message)));
}

void Checker::run_pass(bool final_pass) {
  final_ = final_pass;
  info_.printfs.clear();
  info_.time_formats.clear();
  info_.builtins_used.clear();
  info_.max_arg_index = 0;
  info_.uses_args = false;
  for (ProbeBlock& p : prog_.probes) {
    probe_ = &p;
    vars_.clear();
    loop_depth_ = 0;
    if (p.predicate) condition(*p.predicate, "predicate");
    block(p.body);
  }
  probe_ = nullptr;
  if (!final_pass) return;
  for (MapInfo& m : info_.maps) {
    if (m.value.kind == TypeKind::None && !value_failed_[size_t(&m - info_.maps.data())])
      error(m.first_use, "Undefined map: " + m.name);
  }
}

// --- statements ------------------------------------------------------------------------------

void Checker::block(std::vector<StmtPtr>& body) {
  for (StmtPtr& s : body) statement(*s);
}

void Checker::condition(Expr& e, const char* what) {
  check(e, Use::Value);
  // bpftrace 0.17 takes a pointer as a predicate (opensnoop's /@filename[tid]/) but refuses
  // it in if() and ?:; 0.22 on takes it everywhere, true when not null (oomkill.bt's
  // `if $memcg {`). Accepting it breaks no 0.17 script.
  if (e.type.kind != TypeKind::None && !e.type.is_integer() && !e.type.is_pointer())
    error(e.span, std::string("Invalid type for ") + what + ": " + type_name(e.type) +
                      " (compare it, e.g. comm == \"bash\")");
}

void Checker::statement(Stmt& s) {
  switch (s.kind) {
    case StmtKind::Expr: check(*s.expr, Use::Statement); break;
    case StmtKind::Assign:
      assign(s);
      note_lhist(s);
      break;
    case StmtKind::If: if_branches(s); break;
    case StmtKind::While:
      condition(*s.expr, "while condition");
      ++loop_depth_;
      block(s.body);
      --loop_depth_;
      break;
    case StmtKind::Unroll: block(s.body); break;
    case StmtKind::For: for_statement(s); break;
    case StmtKind::Return: break;
    case StmtKind::Break:
    case StmtKind::Continue:
      if (loop_depth_ == 0)
        error(s.span, std::string(s.kind == StmtKind::Break ? "break" : "continue") + " used outside of a while loop");
      break;
  }
}

void Checker::assign(Stmt& s) {
  if (s.target->kind == ExprKind::Variable) assign_variable(s);
  else assign_map(s);
}

void Checker::assign_variable(Stmt& s) {
  Expr& var = *s.target;
  auto it = vars_.find(var.name);
  if (s.op != Op::None) {
    // $x op= v is $x = $x op v: $x must already hold an integer.
    check(*s.expr, Use::Value);
    if (it == vars_.end()) {
      error(var.span, "Undefined or undeclared variable: " + var.name);
      return;
    }
    var.type = it->second;
    if (it->second.kind == TypeKind::None || s.expr->type.kind == TypeKind::None) return;  // already reported
    if (!it->second.is_integer() || !s.expr->type.is_integer())
      error(s.span, std::string("The ") + op_spelling(s.op) + "= operator needs integers (" +
                        type_name(it->second) + " and " + type_name(s.expr->type) + " given)");
    return;
  }
  check(*s.expr, Use::Value);
  if (it != vars_.end()) reorder_record(*s.expr, it->second);
  Type value = s.expr->type;
  if (value.in_memory()) value.user_memory = false;  // copied onto this program's stack
  if (value.kind == TypeKind::None) {
    // Already reported. The variable exists from here on, with no type, so its uses raise
    // no "Undefined variable" of their own.
    if (it == vars_.end()) vars_[var.name] = value;
    return;
  }
  if (it == vars_.end() || it->second.kind == TypeKind::None) {
    vars_[var.name] = value;
    var.type = value;
    return;
  }
  if (!compatible(it->second, value)) {
    error(s.op_span, "Type mismatch for " + var.name + ": trying to assign value of type '" + type_name(value) +
                        "' when variable already contains a value of type '" + type_name(it->second) + "'");
    return;
  }
  it->second = merged(it->second, value);
  var.type = it->second;
}

void Checker::assign_map(Stmt& s) {
  Expr& target = *s.target;
  map_for(target, true);
  check(*s.expr, s.op != Op::None ? Use::Value : Use::MapValue);
  // Checking the value may have added maps (@a = @b), moving every MapInfo: look it up now.
  MapInfo& info = info_.maps[size_t(target.map_id)];
  if (s.expr->type.kind == TypeKind::None) {
    value_failed_[size_t(target.map_id)] = true;  // already reported
    return;
  }
  reorder_record(*s.expr, info.value);
  Type value = s.expr->type;
  if (s.op != Op::None) {
    if (!value.is_integer()) {
      error(s.span, std::string("The ") + op_spelling(s.op) + "= operator needs an integer value (" +
                        type_name(value) + " given)");
      return;
    }
    value = Type::integer(8, value.is_signed);
  }
  merge_map_value(target, info, value);
  target.type = info.value;
}

// --- maps ------------------------------------------------------------------------------------

MapInfo* Checker::map_for(Expr& m, bool defining) {
  (void)defining;
  whole_map(m);
  check_map_keys(m);
  // Checking the keys may have added maps (@a[@b]), moving every MapInfo: look it up again.
  return &info_.maps[size_t(m.map_id)];
}

MapInfo* Checker::whole_map(Expr& m) {
  int id = info_.find_map(m.name);
  if (id < 0) {
    MapInfo fresh;
    fresh.name = m.name;
    fresh.first_use = m.span;
    info_.maps.push_back(std::move(fresh));
    id = static_cast<int>(info_.maps.size() - 1);
    key_known_.push_back(false);
    value_failed_.push_back(false);
  }
  m.map_id = id;
  return &info_.maps[id];
}

void Checker::check_map_keys(Expr& m) {
  std::vector<Type> key;
  for (ExprPtr& k : m.operands) {
    check(*k, Use::Value);
    if (k->type.kind == TypeKind::None) return;
    // bpftrace 0.17 accepts any aggregation here and then aborts in its code generator
    // ("invalid mapkey argument type"); min and max hold { value, set } per CPU, which no
    // key could use without reducing over every CPU.
    if (is_aggregation(k->type.kind)) {
      error(k->span, "a map key cannot be a " + type_name(k->type) + " value");
      return;
    }
    key.push_back(widen_integer(k->type));
  }
  size_t id = static_cast<size_t>(m.map_id);
  // Taken only now: checking a key may add a map and so move this one.
  MapInfo& info = info_.maps[id];
  if (key_known_[id] && key.size() != info.key.size()) {
    std::vector<Type> want = info.key;
    if (reshape_key(m, want)) return check_map_keys(m);
  }
  if (!key_known_[id]) {
    key_known_[id] = true;
    info.key = key;
  } else {
    bool ok = key.size() == info.key.size();
    for (size_t i = 0; ok && i < key.size(); ++i) ok = compatible(info.key[i], key[i]);
    if (!ok) {
      error(m.span, "Argument mismatch for " + m.name + ": trying to access with arguments: " + type_list(key) +
                        " when map expects arguments: " + type_list(info.key));
      return;
    }
    for (size_t i = 0; i < key.size(); ++i) info.key[i] = merged(info.key[i], key[i]);
  }
}

// The buckets of an lhist map come from its first lhist() assignment in the text.
void Checker::note_lhist(const Stmt& s) {
  const Expr& value = *s.expr;
  if (s.target->kind != ExprKind::Map || s.target->map_id < 0 || value.function != FunctionId::LHist ||
      value.operands.size() != 4)
    return;
  for (size_t i = 1; i < 4; ++i)
    if (value.operands[i]->kind != ExprKind::Integer) return;  // reported by call_lhist
  size_t id = static_cast<size_t>(s.target->map_id);
  if (lhist_known_.size() <= id) lhist_known_.resize(id + 1, false);
  if (lhist_known_[id]) return;
  lhist_known_[id] = true;
  auto param = [&](int i) { return static_cast<int64_t>(value.operands[i]->int_value); };
  LHistParams p{param(1), param(2), param(3)};
  if (p.step >= 1 && p.min < p.max) info_.maps[id].layout.lhist = p;  // else reported by call_lhist
}

void Checker::plan_layouts() {
  for (MapInfo& m : info_.maps) m.layout = plan_map_layout(m.key, m.value, m.layout.lhist);
}

void Checker::merge_map_value(Expr& target, MapInfo& info, const Type& value) {
  Type stored = widen_integer(value);
  if (info.value.kind == TypeKind::None) {
    info.value = stored;
    return;
  }
  if (!compatible(info.value, stored)) {
    error(target.span, "Type mismatch for " + info.name + ": trying to assign value of type '" + type_name(stored) +
                           "' when map already contains a value of type '" + type_name(info.value) + "'");
    return;
  }
  info.value = merged(info.value, stored);
}

// --- expressions -----------------------------------------------------------------------------

void Checker::check(Expr& e, Use use) {
  switch (e.kind) {
    case ExprKind::Integer:
      // bpftrace types literals int64; ones past INT64_MAX only fit unsigned.
      e.type = Type::integer(8, e.int_value <= static_cast<uint64_t>(INT64_MAX));
      if (e.name == "true" || e.name == "false") e.type = Type::boolean();
      break;
    case ExprKind::String: e.type = Type::string(static_cast<uint32_t>(e.str.size() + 1)); break;
    case ExprKind::Builtin: builtin(e); break;
    case ExprKind::Variable: variable(e); break;
    case ExprKind::Map: {
      MapInfo* info = map_for(e, false);
      e.type = info->value;
      if (info->value.kind == TypeKind::None && !value_failed_[size_t(e.map_id)])
        error(e.span, "Undefined map: " + e.name);
      break;
    }
    case ExprKind::Call: call(e, use); return;
    case ExprKind::Unary: unary(e); break;
    case ExprKind::Binary: binary(e); break;
    case ExprKind::Ternary: use == Use::Statement ? ternary_statement(e) : ternary(e); break;
    case ExprKind::IncDec: incdec(e); break;
    case ExprKind::Cast: cast(e); break;
    case ExprKind::Field: field(e); break;
    case ExprKind::Tuple: tuple(e); break;
    case ExprKind::TupleElement: element_of_tuple(e); break;
    case ExprKind::Deref: deref(e); break;
    case ExprKind::Index: index(e); break;
    case ExprKind::Sizeof: size_of(e); break;
    case ExprKind::Offsetof: offset_of(e); break;
    case ExprKind::Block: break;  // moved out before the checker runs (block_expr.h)
  }
}

void Checker::variable(Expr& e) {
  auto it = vars_.find(e.name);
  if (it == vars_.end()) {
    error(e.span, "Undefined or undeclared variable: " + e.name);
    return;
  }
  e.type = it->second;
}

void Checker::unary(Expr& e) {
  Expr& x = *e.operands[0];
  check(x, Use::Value);
  if (x.type.kind == TypeKind::None) return;
  if (!x.type.is_integer()) {
    error(e.span, std::string("The ") + op_spelling(e.op) + " operator can not be used on expressions of type '" +
                      type_name(x.type) + "'");
    return;
  }
  // bpftrace 0.17: -x and ~x are 64-bit with x's sign; !x is a bool (0.22 on; 0 or 1 as in 0.17).
  if (e.op == Op::LogNot) e.type = Type::boolean();
  else e.type = Type::integer(8, x.type.is_signed);
}

void Checker::binary(Expr& e) {
  Expr& l = *e.operands[0];
  Expr& r = *e.operands[1];
  check(l, Use::Value);
  check(r, Use::Value);
  if (l.type.kind == TypeKind::None || r.type.kind == TypeKind::None) return;
  if (l.type.is_string() && r.type.is_string() && (e.op == Op::Eq || e.op == Op::Ne)) {
    e.type = Type::boolean();
    return;
  }
  if (l.type.is_pointer() || r.type.is_pointer()) {
    pointer_binary(e);
    return;
  }
  if (array_binary(e)) return;
  if (!l.type.is_integer() || !r.type.is_integer()) {
    error(e.span, std::string("Type mismatch for '") + op_spelling(e.op) + "': comparing '" + type_name(l.type) +
                      "' with '" + type_name(r.type) + "'");
    return;
  }
  // bpftrace 0.17: 64-bit arithmetic, signed only when both sides are. Comparisons are bools
  // (0.22 on), as are && and || of two bools; each is still the 0 or 1 of 0.17.
  e.type = Type::integer(8, l.type.is_signed && r.type.is_signed);
  bool logical = e.op == Op::LogAnd || e.op == Op::LogOr;
  if (op_is_comparison(e.op) || (logical && l.type.is_bool && r.type.is_bool)) e.type = Type::boolean();
}

// bpftrace 0.17: a pointer plus or minus an integer is a pointer moved by whole elements;
// pointers compare with pointers and integers; nothing else takes a pointer.
void Checker::pointer_binary(Expr& e) {
  Expr& l = *e.operands[0];
  Expr& r = *e.operands[1];
  bool both = l.type.is_pointer() && r.type.is_pointer();
  bool other_int = l.type.is_integer() || r.type.is_integer();
  if (op_is_comparison(e.op) && (both || other_int)) {
    e.type = Type::boolean();
    return;
  }
  if ((e.op == Op::Add || (e.op == Op::Sub && l.type.is_pointer())) && !both && other_int) {
    const Type& ptr = l.type.is_pointer() ? l.type : r.type;
    e.scale = std::max<uint32_t>(1, ctypes::size_of(ctypes::strip_typedefs(ptr.ctype)->target));
    e.type = ptr;
    return;
  }
  error(e.span, std::string("The ") + op_spelling(e.op) + " operator can not be used on expressions of types " +
                    type_name(l.type) + ", " + type_name(r.type));
}

void Checker::ternary(Expr& e) {
  condition(*e.operands[0], "condition");
  Expr& a = *e.operands[1];
  Expr& b = *e.operands[2];
  check(a, Use::Value);
  check(b, Use::Value);
  ternary_type(e);
}

void Checker::ternary_type(Expr& e) {
  Expr& a = *e.operands[1];
  Expr& b = *e.operands[2];
  if (a.type.kind == TypeKind::None || b.type.kind == TypeKind::None) return;
  if (a.type.is_integer() && b.type.is_integer()) {
    e.type = Type::integer(8, a.type.is_signed);  // bpftrace 0.17 takes the first branch's sign
  } else if (compatible(a.type, b.type)) {
    e.type = merged(a.type, b.type);
  } else {
    error(e.span, "Ternary operator must return the same type: have '" + type_name(a.type) + "' and '" +
                      type_name(b.type) + "'");
  }
}

void Checker::incdec(Expr& e) {
  Expr& target = *e.operands[0];
  if (target.kind == ExprKind::Variable) {
    variable(target);
  } else {
    MapInfo* info = map_for(target, true);
    // @m++ on a map never assigned defines it as an integer map, as in bpftrace.
    if (info->value.kind == TypeKind::None) info->value = Type::integer(8, true);
    target.type = info->value;
  }
  if (target.type.kind == TypeKind::None) return;
  if (!target.type.is_integer()) {
    error(e.span, std::string("The ") + op_spelling(e.op) + " operator can not be used on expressions of type '" +
                      type_name(target.type) + "'");
    return;
  }
  e.type = Type::integer(8, target.type.is_signed);
}

void Checker::cast(Expr& e) {
  if (e.type_name.present()) {
    cast_to_c(e);
    return;
  }
  Expr& x = *e.operands[0];
  check(x, Use::Value);
  if (x.type.kind == TypeKind::None) return;
  if (e.int_value) return cast_to_array(e);  // semantic_array_casts.cpp
  if (x.type.kind == TypeKind::Array) return cast_from_array(e);
  if (e.cast_type.is_bool) return cast_to_bool(e);  // semantic_bool.cpp
  if (!x.type.is_scalar()) {
    error(e.span, "Cannot cast from '" + type_name(x.type) + "' to '" + type_name(e.cast_type) + "'");
    return;
  }
  e.type = e.cast_type;
}

void Checker::tuple(Expr& e) {
  std::vector<Type> fields;
  for (ExprPtr& x : e.operands) {
    check(*x, Use::Value);
    if (x->type.kind == TypeKind::None) return;
    fields.push_back(x->type);
  }
  e.type = tuple_of(std::move(fields));
  e.type.field_names = e.names;  // a record's (semantic_records.cpp)
}

ProgramInfo analyse(Program& prog, const SemanticOptions& options, Diagnostics& diags) {
  Checker c(prog, options, diags);
  c.run_pass(false);
  c.run_pass(true);
  c.plan_layouts();
  return c.take_info();
}

}  // namespace rawprobe::lang
