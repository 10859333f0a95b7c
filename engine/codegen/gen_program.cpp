// One program: prologue, predicate, statements, epilogue.
//
//   r6 = r1                       only when something reads the context (argN, args, retval,
//                                 func, the cookie, perf_event_output) after the first
//                                 instruction (compile() retries with r6 when that happens)
//   *(u64 *)(r10 -8) = 0          scratch variables that may be read before written
//   if !(predicate) goto exit       (code no path reaches is dropped: bpfasm/builder.h)
//   ...statements...
// exit:
//   r0 = 0
//   exit
#include <set>

#include "engine/codegen/gen.h"
#include "engine/lang/diagnostics.h"

namespace rawprobe::codegen {

using lang::Expr;
using lang::ExprKind;
using lang::Stmt;
using lang::StmtKind;

namespace {

template <class F>
void visit_expr(const Expr& e, F& f) {
  f(e);
  for (const lang::ExprPtr& o : e.operands) visit_expr(*o, f);
}

template <class F>
void visit_stmts(const std::vector<lang::StmtPtr>& body, F& f) {
  for (const lang::StmtPtr& s : body) {
    if (s->target) visit_expr(*s->target, f);
    if (s->expr) visit_expr(*s->expr, f);
    if (s->range_end) visit_expr(*s->range_end, f);
    visit_stmts(s->body, f);
    visit_stmts(s->else_body, f);
  }
}

// A slot that holds both: the longer of two strings, field by field in tuples
// (("a", 1) then ("abcdef", 2) needs the second's string in a tuple of the same size).
Type widest(const Type& a, const Type& b) {
  if (a.kind == TypeKind::Tuple && b.kind == TypeKind::Tuple && a.fields.size() == b.fields.size()) {
    std::vector<Type> fields;
    for (size_t i = 0; i < a.fields.size(); ++i) fields.push_back(widest(a.fields[i], b.fields[i]));
    Type t = tuple_of(std::move(fields));
    t.field_names = a.field_names;
    return t;
  }
  return b.size > a.size ? b : a;
}

void variables_in(const Expr& e, std::set<std::string>& out) {
  auto f = [&](const Expr& x) {
    if (x.kind == ExprKind::Variable) out.insert(x.name);
  };
  visit_expr(e, f);
}

}  // namespace

ProgramGen::ProgramGen(ScriptState& script, const lang::ProbeBlock& block, const ProgramTarget& target,
                       bpf::Builder& b, bool ctx_in_r6)
    : script_(script), block_(block), target_(target), b_(b), regs_(frame_), ctx_in_r6_(ctx_in_r6) {
  // A constant condition (`if (1)`, `1 ? a : b`, `/0/`) or a statement after exit(), return,
  // break or continue leaves code no path reaches, and the verifier rejects the whole program
  // for it ("unreachable insn"); bpftrace 0.17 never runs such code either.
  b_.drop_unreachable();
}

bool ProgramGen::is_user_probe() const {
  return probes::probe_type(target_.points.front()->kind).context.user_space;
}

bpf::Reg ProgramGen::ctx() {
  if (ctx_in_r6_) return bpf::R6;
  if (b_.size() == body_start_) return bpf::R1;  // nothing emitted yet: r1 is still the context
  needs_r6_ = true;
  return bpf::R6;
}

void ProgramGen::fail(lang::Span span, std::string message) {
  if (error_) return;
  Error err = make_error(std::move(message));
  err.at = SourceRange{span.begin, span.end};
  error_ = std::move(err);
}

void ProgramGen::annotate(lang::Span span) {
  const lang::SourceFile* src = script_.options().source;
  std::string name = script_.options().source_name;
  if (!src) {
    b_.annotate(name.empty() ? std::string("statement") : name);
    return;
  }
  // A span in a file the script includes is annotated with that file's name.
  if (std::string_view file = src->name_at(span.begin); name.empty() || file != src->name()) name = file;
  std::string line(src->line_at(span.begin));
  size_t first = line.find_first_not_of(" \t");
  line = first == std::string::npos ? "" : line.substr(first);
  b_.annotate(name + ":" + std::to_string(src->position(span.begin).line) + ": " + line);
}

Status ProgramGen::generate() {
  regs_.set_registers(temp_registers());
  exit_label_ = b_.new_label("exit");
  if (is_watchpoint_setup()) {  // not the block's body: it runs on the watchpoint
    watchpoint_setup();
    if (error_) return *error_;
    return {};
  }

  // Scratch variables: one slot each for the whole program, sized by their widest value.
  auto collect = [&](const Expr& e) {
    if (e.kind != ExprKind::Variable || e.type.kind == TypeKind::None) return;
    auto [it, fresh] = variable_types_.emplace(e.name, e.type);
    if (!fresh) it->second = widest(it->second, e.type);
  };
  if (block_.predicate) visit_expr(*block_.predicate, collect);
  visit_stmts(block_.body, collect);
  // A variable whose first mention is a plain top-level assignment is always written before
  // it is read; every other one is zeroed first, or the verifier rejects reading a stack
  // slot that a path left unwritten.
  std::set<std::string> seen, written_first;
  for (const lang::StmtPtr& s : block_.body) {
    std::set<std::string> here;
    auto f = [&](const Expr& e) { variables_in(e, here); };
    if (s->expr) f(*s->expr);
    if (s->range_end) f(*s->range_end);
    if (s->kind == StmtKind::Assign && s->op == lang::Op::None && s->target->kind == ExprKind::Variable &&
        !seen.count(s->target->name) && !here.count(s->target->name))
      written_first.insert(s->target->name);
    if (s->target) f(*s->target);
    auto g = [&](const Expr& e) { variables_in(e, here); };
    visit_stmts(s->body, g);
    visit_stmts(s->else_body, g);
    seen.insert(here.begin(), here.end());
  }
  for (const auto& [name, type] : variable_types_) variables_[name] = frame_.alloc(type_size(type));

  if (ctx_in_r6_) b_.mov(bpf::R6, bpf::R1);
  body_start_ = b_.size();
  for (const auto& [name, type] : variable_types_)
    if (!written_first.count(name)) zero(Place{variables_[name], {}}, (type_size(type) + 7) / 8 * 8);

  // An iterator's program runs once more after the last object, with the object NULL (the
  // seq_file's stop), where the block must not run: bpftrace skips it the same way.
  if (const probes::AttachPoint& p = *target_.points.front(); p.kind == lang::ProbeKind::Iter && !p.fields.empty()) {
    b_.load(bpf::Size::DW, bpf::R2, ctx(), static_cast<int16_t>(p.fields.front().offset));
    b_.jump(bpf::Cond::Eq, bpf::R2, 0, exit_label_);
  }
  if (block_.predicate) {
    annotate(block_.predicate->span);
    branch(*block_.predicate, false, exit_label_);
  }
  statements(block_.body);
  b_.bind(exit_label_, "end of probe");
  b_.mov(bpf::R0, 0);
  b_.exit();

  if (!error_ && frame_.overflowed())
    fail(block_.span, "this probe needs " + std::to_string(frame_.high_water()) +
                          " bytes of BPF stack, more than the kernel's 512: use fewer or shorter strings "
                          "(str(p, n), BPFTRACE_STRLEN) or split the statement");
  loop_callbacks();
  count_callback();
  if (error_) return *error_;
  return {};
}

void ProgramGen::statements(const std::vector<lang::StmtPtr>& body) {
  for (const lang::StmtPtr& s : body) {
    uint32_t mark = frame_.mark();
    statement(*s);
    frame_.release_to(mark);
    regs_.frame_released(mark);
    if (error_) return;
  }
}

void ProgramGen::statement(const Stmt& s) {
  if (s.kind != StmtKind::If && s.kind != StmtKind::While && s.kind != StmtKind::Unroll) annotate(s.span);
  switch (s.kind) {
    case StmtKind::Expr:
      if (!s.declares) {
        expr_statement(*s.expr);
      } else if (auto type = variable_types_.find(s.target->name); type != variable_types_.end()) {
        // `let $x;` sets $x to 0 each time it runs, a loop's pass included (0.26.1's docs: "If
        // no assignment is specified variables will initialize to 0"). Unused: no slot.
        zero(Place{variables_[s.target->name], {}}, (type_size(type->second) + 7) / 8 * 8);
      }
      break;
    case StmtKind::Assign: assign(s); break;
    case StmtKind::If: {
      annotate(s.expr->span);
      bpf::Label else_label = b_.new_label("else");
      bpf::Label end = b_.new_label("endif");
      branch(*s.expr, false, else_label);
      statements(s.body);
      if (!s.else_body.empty()) b_.jump(end);
      b_.bind(else_label);
      statements(s.else_body);
      b_.bind(end);
      break;
    }
    case StmtKind::While: {
      // A bounded loop: the verifier (5.3+) proves it ends by walking it.
      annotate(s.expr->span);
      Loop loop{b_.new_label("while"), b_.new_label("endwhile")};
      b_.bind(loop.top);
      branch(*s.expr, false, loop.end);
      loops_.push_back(loop);
      statements(s.body);
      loops_.pop_back();
      b_.jump(loop.top);
      b_.bind(loop.end);
      break;
    }
    case StmtKind::Unroll:
      for (uint64_t i = 0; i < s.count && !error_; ++i) statements(s.body);
      break;
    case StmtKind::For: for_statement(s); break;
    case StmtKind::Return: b_.jump(exit_label_); break;
    case StmtKind::Break: b_.jump(loops_.back().end); break;
    case StmtKind::Continue: b_.jump(loops_.back().top); break;
  }
}

void ProgramGen::expr_statement(const Expr& e) {
  if (e.kind == ExprKind::Call) {
    call_statement(e);
  } else if (e.kind == ExprKind::Ternary && e.type.kind == TypeKind::None) {
    ternary_statement(e);
  } else if (e.type.kind == TypeKind::Integer) {
    IntVal v = gen_int(e);
    release(v);
  }
  // Other values without side effects (`comm;`) generate nothing.
}

void ProgramGen::assign(const Stmt& s) {
  const Expr& target = *s.target;
  const Expr& value = *s.expr;
  if (target.kind == ExprKind::Map) {
    if (s.op != lang::Op::None) {
      IntVal cur = map_read_int(target, target.span);
      pin(cur);
      IntVal rhs = gen_int(value);
      IntVal result = apply(s.op, cur, rhs, target.type.is_signed && value.type.is_signed);
      Place key = map_key(target);
      map_write_int(target, key, result, lang::Span::join(target.span, value.span));
      release(result);
    } else if (value.kind == ExprKind::Call && generate_hooks(value.function).aggregate) {
      (this->*generate_hooks(value.function).aggregate)(target, value);
    } else {
      map_write(target, value, s.op_span);  // bpftrace 0.17 points -k at the '='
    }
    return;
  }
  int32_t slot = variable_slot(target);
  const Type& type = variable_types_[target.name];
  if (type.kind == TypeKind::Integer) {
    IntVal v;
    if (s.op != lang::Op::None) {
      IntVal cur = variable_int(target);
      IntVal rhs = gen_int(value);
      v = apply(s.op, cur, rhs, target.type.is_signed && value.type.is_signed);
    } else {
      v = gen_int(value);
    }
    bpf::Reg r = use(v, bpf::R1);
    b_.store(bpf::Size::DW, bpf::R10, static_cast<int16_t>(slot), r);
    release(v);
    return;
  }
  write(value, type, Place{slot, {}});
}

int32_t ProgramGen::variable_slot(const Expr& var) { return variables_.at(var.name); }

}  // namespace rawprobe::codegen
