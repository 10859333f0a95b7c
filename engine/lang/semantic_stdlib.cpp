// Functions of bpftrace 0.22 to 0.26.1's standard library (docs/stdlib.md of v0.26.1) that the
// semantic pass answers by rewriting the call: into the C field accesses they stand for
// (ppid, pcomm) or into the literal a type test gives (is_integer, ...).
#include "engine/lang/semantic_internal.h"
#include "engine/probes/probe_types.h"

namespace rawprobe::lang {

// ppid([task]): task->real_parent->tgid, as uint32; pcomm([task]): task->group_leader->comm.
// The task is the current one (curtask) without an argument.
void Checker::call_task_field(Expr& e) {
  if (!arg_count(e)) return;
  bool parent = e.function == FunctionId::Ppid;
  ExprPtr task;
  if (e.operands.empty()) {
    task = make_expr(ExprKind::Builtin, e.span);
    task->name = "curtask";
  } else {
    task = std::move(e.operands[0]);
  }
  ExprPtr as_task = make_expr(ExprKind::Cast, e.span);
  as_task->type_name = TypeName{ctypes::CKind::Struct, "task_struct", 1, e.span};
  as_task->operands.push_back(std::move(task));
  auto field = [&](ExprPtr base, const char* name) {
    ExprPtr f = make_expr(ExprKind::Field, e.span);
    f->name = name;
    f->arrow = true;
    f->operands.push_back(std::move(base));
    return f;
  };
  ExprPtr value = field(field(std::move(as_task), parent ? "real_parent" : "group_leader"), parent ? "tgid" : "comm");
  if (parent) {
    ExprPtr as_u32 = make_expr(ExprKind::Cast, e.span);
    as_u32->cast_type = Type::integer(4, false);
    as_u32->operands.push_back(std::move(value));
    value = std::move(as_u32);
  }
  Expr rewritten = std::move(*value);
  e = std::move(rewritten);
  check(e, Use::Value);
}

// is_integer(x), is_str(x), ...: known from x's type, so the call becomes that literal.
void Checker::call_type_test(Expr& e) {
  if (!arg_count(e)) return;
  Expr& x = *e.operands[0];
  check(x, Use::Value);
  const Type& t = x.type;
  bool yes = false;
  switch (e.function) {
    case FunctionId::IsInteger: yes = t.is_integer(); break;
    case FunctionId::IsUnsignedInteger: yes = t.is_integer() && !t.is_signed; break;
    case FunctionId::IsStr: yes = t.is_string(); break;
    case FunctionId::IsPtr: yes = t.is_pointer(); break;
    case FunctionId::IsArray: yes = t.kind == TypeKind::Array; break;
    case FunctionId::IsLiteral: yes = x.kind == ExprKind::Integer || x.kind == ExprKind::String; break;
    default: break;
  }
  if (t.kind == TypeKind::None && e.function != FunctionId::IsLiteral) return;  // already reported
  e.kind = ExprKind::Integer;
  e.int_value = yes;
  e.name = yes ? "true" : "false";  // a bool, as docs/stdlib.md types them
  e.operands.clear();
  check(e, Use::Value);
}

// probetype: the block's probe type, as a string literal ("special" for BEGIN and END, as
// docs/stdlib.md says). A block whose points are of several types has no one answer here.
void Checker::call_probetype(Expr& e) {
  if (!arg_count(e)) return;
  std::string name;
  for (const ProbeSpec& s : probe_->specs) {
    bool special = probes::probe_type(s.kind).context.special;
    std::string kind = special ? "special" : probe_kind_name(s.kind);
    if (!name.empty() && kind != name)
      return error(e.span, "probetype in a block of several probe types (" + name + ", " + kind +
                               "): split the block, one probe type each");
    name = kind;
  }
  e.kind = ExprKind::String;
  e.str = name;
  check(e, Use::Value);
}

// Functions whose only implementation needs what rawprobe does not have: the error says what.
void Checker::call_unavailable(Expr& e) {
  for (ExprPtr& a : e.operands) check(*a, Use::Value);
  switch (e.function) {
    case FunctionId::DwUstack:
      return error(e.span,
                   "dw_ustack() unwinds user stacks with DWARF call-frame information through LLVM's unwinder, "
                   "which rawprobe does not link; use ustack(), which follows frame pointers");
    case FunctionId::Skboutput:
      return error(e.span,
                   "skboutput() needs bpf_skb_output(), which only fentry/fexit programs may call, and rawprobe "
                   "attaches no fentry/fexit probes; read packet bytes with buf() instead");
    default: return error(e.span, e.name + "() is not supported by rawprobe");
  }
}

}  // namespace rawprobe::lang
