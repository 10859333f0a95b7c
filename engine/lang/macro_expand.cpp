#include "engine/lang/macro_expand.h"

#include <map>

namespace rawprobe::lang {
namespace {

// Deeper than any sensible chain of macros calling macros; a macro that calls itself stops here.
constexpr uint32_t kMaxExpansionDepth = 64;

// What one expansion replaces in a copy of the macro's body.
struct Bindings {
  const MacroDef* macro = nullptr;
  std::map<std::string, std::string> variables;  // body name -> caller's name (or a fresh one)
  std::map<std::string, std::string> maps;       // "@m" -> caller's map
  std::map<std::string, const Expr*> values;     // "x" -> the caller's expression
  std::string suffix;                            // appended to the body's own variables
  Diagnostics* diags = nullptr;
  bool failed = false;  // the body uses a map it was not given
};

ExprPtr clone(const Expr& e, Bindings* b);

StmtPtr clone(const Stmt& s, Bindings* b) {
  auto c = std::make_unique<Stmt>();
  c->kind = s.kind;
  c->span = s.span;
  c->op = s.op;
  c->op_span = s.op_span;
  c->count = s.count;
  c->has_else = s.has_else;
  c->declares = s.declares;
  if (s.target) c->target = clone(*s.target, b);
  if (s.expr) c->expr = clone(*s.expr, b);
  if (s.range_end) c->range_end = clone(*s.range_end, b);
  for (const StmtPtr& x : s.body) c->body.push_back(clone(*x, b));
  for (const StmtPtr& x : s.else_body) c->else_body.push_back(clone(*x, b));
  return c;
}

// A copy of `e` with the parse-time fields (the checker fills the rest); with bindings, the
// macro's parameters and own variables replaced as Bindings says.
ExprPtr clone(const Expr& e, Bindings* b) {
  if (b && e.kind == ExprKind::Builtin) {
    auto it = b->values.find(e.name);
    if (it != b->values.end()) return clone(*it->second, nullptr);
  }
  ExprPtr c = make_expr(e.kind, e.span);
  c->name = e.name;
  c->str = e.str;
  c->int_value = e.int_value;
  c->op = e.op;
  c->postfix = e.postfix;
  c->arrow = e.arrow;
  c->depth = e.depth;
  c->cast_type = e.cast_type;
  c->type_name = e.type_name;
  c->names = e.names;
  for (const ExprPtr& o : e.operands) c->operands.push_back(clone(*o, b));
  for (const StmtPtr& x : e.stmts) c->stmts.push_back(clone(*x, b));
  if (!b) return c;
  if (e.kind == ExprKind::Variable) {
    auto it = b->variables.find(e.name);
    c->name = it != b->variables.end() ? it->second : e.name + b->suffix;
  } else if (e.kind == ExprKind::Map) {
    auto it = b->maps.find(e.name);
    if (it != b->maps.end()) {
      c->name = it->second;
    } else {
      b->failed = true;
      b->diags->error(e.span, "macro " + b->macro->name + " uses the map " + e.name +
                                  ", which is not passed to it: macros reach only the maps they are given; add " +
                                  e.name + " to its parameters, as macro " + b->macro->name + "(" + e.name + ")");
    }
  }
  return c;
}

class Expander {
 public:
  Expander(Program& prog, Diagnostics& diags) : prog_(prog), diags_(diags) {}

  void run() {
    for (ProbeBlock& p : prog_.probes) {
      if (p.predicate) expr(p.predicate);
      statements(p.body);
    }
  }

 private:
  const MacroDef* macro_called(const Expr& e) const {
    if (e.kind != ExprKind::Call && e.kind != ExprKind::Builtin) return nullptr;
    for (const MacroDef& m : prog_.macros)
      if (m.name == e.name) return e.kind == ExprKind::Call || m.params.empty() ? &m : nullptr;
    return nullptr;
  }

  void statements(std::vector<StmtPtr>& list) {
    std::vector<StmtPtr> out;
    for (StmtPtr& s : list) {
      const MacroDef* m = s->kind == StmtKind::Expr ? macro_called(*s->expr) : nullptr;
      if (!m) {
        statement(*s);
        out.push_back(std::move(s));
        continue;
      }
      std::vector<StmtPtr> body;
      ExprPtr value;
      if (!expand(*m, *s->expr, body, value)) continue;
      for (StmtPtr& x : body) out.push_back(std::move(x));
      if (value) {
        auto v = std::make_unique<Stmt>();
        v->kind = StmtKind::Expr;
        v->span = value->span;
        v->expr = std::move(value);
        out.push_back(std::move(v));
      }
    }
    list = std::move(out);
  }

  void statement(Stmt& s) {
    if (s.target) expr(s.target);
    if (s.expr) expr(s.expr);
    if (s.range_end) expr(s.range_end);
    statements(s.body);
    statements(s.else_body);
  }

  void expr(ExprPtr& e) {
    if (const MacroDef* m = macro_called(*e)) {
      std::vector<StmtPtr> body;
      ExprPtr value;
      if (!expand(*m, *e, body, value)) return;
      if (!value) {
        diags_.error(e->span, "macro " + m->name + " is used as a value, but its body ends with ';' or a "
                                  "statement, so it has none: end it with an expression and no ';'");
        return;
      }
      if (body.empty()) {
        e = std::move(value);
        return;
      }
      // Statements before the value: the expansion is a block expression, `{ body; value }`.
      ExprPtr block = make_expr(ExprKind::Block, e->span);
      block->stmts = std::move(body);
      block->operands.push_back(std::move(value));
      e = std::move(block);
      return;
    }
    statements(e->stmts);
    for (ExprPtr& o : e->operands) expr(o);
  }

  // The macro's body for this call, its own macro calls expanded; false after an error.
  bool expand(const MacroDef& m, const Expr& call, std::vector<StmtPtr>& body, ExprPtr& value) {
    if (depth_ >= kMaxExpansionDepth) {
      diags_.error(call.span, "macro " + m.name + " expands more than " + std::to_string(kMaxExpansionDepth) +
                                  " levels deep: does it call itself?");
      return false;
    }
    const std::vector<ExprPtr>& args = call.operands;
    if (args.size() != m.params.size()) {
      diags_.error(call.span, "macro " + m.name + " takes " + std::to_string(m.params.size()) + " argument" +
                                  (m.params.size() == 1 ? "" : "s") + ", " + std::to_string(args.size()) + " given");
      return false;
    }
    Bindings b;
    b.macro = &m;
    b.diags = &diags_;
    b.suffix = "@" + m.name + "." + std::to_string(++serial_);
    for (size_t i = 0; i < args.size(); ++i) {
      const std::string& p = m.params[i];
      const Expr& a = *args[i];
      if (p[0] == '$' || p[0] == '@') {
        bool is_var = p[0] == '$';
        bool ok = is_var ? a.kind == ExprKind::Variable : a.kind == ExprKind::Map && a.operands.empty();
        if (!ok) {
          diags_.error(a.span, "macro " + m.name + " expects a " + (is_var ? "scratch variable" : "map") +
                                   " for its parameter " + p + " (e.g. " + m.name + "(" +
                                   (is_var ? "$x" : "@x") + ")), not this expression");
          return false;
        }
        (is_var ? b.variables : b.maps)[p] = a.name;
      } else {
        b.values[p] = &a;
      }
    }
    for (const StmtPtr& s : m.body) body.push_back(clone(*s, &b));
    if (m.value) value = clone(*m.value, &b);
    if (b.failed) return false;
    ++depth_;
    statements(body);
    if (value) expr(value);
    --depth_;
    return true;
  }

  Program& prog_;
  Diagnostics& diags_;
  uint32_t serial_ = 0;
  uint32_t depth_ = 0;
};

}  // namespace

void expand_macros(Program& prog, Diagnostics& diags) {
  if (prog.macros.empty()) return;
  Expander(prog, diags).run();
}

}  // namespace rawprobe::lang
