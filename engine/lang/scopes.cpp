#include "engine/lang/scopes.h"

#include <map>
#include <set>

namespace rawprobe::lang {
namespace {

// One probe's variables, walked twice: the first walk only finds the names a 0.17 script
// reads after the block that assigned them; the second, with those names probe-wide,
// renames and reports.
class Scoper {
 public:
  Scoper(Diagnostics& diags, std::set<std::string> probe_wide, bool apply)
      : diags_(diags), probe_wide_(std::move(probe_wide)), apply_(apply) {}

  void probe(ProbeBlock& p) {
    scopes_.emplace_back();
    if (p.predicate) expr(*p.predicate);
    statements(p.body);
    scopes_.pop_back();
  }

  // Names read where only a closed block had assigned them (the first walk's finding).
  const std::set<std::string>& read_after_block() const { return read_after_block_; }

 private:
  struct Var {
    std::string name;  // as the checker will see it
    bool by_let;
  };
  using Scope = std::map<std::string, size_t>;  // name as written -> index in vars_

  int lookup(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto v = it->find(name);
      if (v != it->end()) return int(v->second);
    }
    return -1;
  }

  void rename(Expr& v, size_t index) {
    if (apply_) v.name = vars_[index].name;
  }

  // A new variable named as `v` in `scope`; the first of its name keeps the name.
  void make(Expr& v, Scope& scope, bool by_let) {
    uint32_t n = ++made_[v.name];
    vars_.push_back({n == 1 ? v.name : v.name + "@" + std::to_string(n), by_let});
    scope[v.name] = vars_.size() - 1;
    rename(v, vars_.size() - 1);
  }

  void read(Expr& v) {
    int i = lookup(v.name);
    if (i >= 0) return rename(v, size_t(i));
    if (closed_plain_.count(v.name)) read_after_block_.insert(v.name);
    // Declared in a block that has ended: undefined here, whatever the checker (which keys
    // variables by name for the whole probe) would find. Otherwise the checker reports it.
    if (apply_ && closed_let_.count(v.name) && !probe_wide_.count(v.name))
      diags_.error(v.span, "Undefined or undeclared variable: " + v.name + " (the `let " + v.name +
                               "` before this is in a block that has ended, and ends with it: declare " + v.name +
                               " before that block to use it here)");
  }

  void assign_plain(Expr& v) {
    int i = lookup(v.name);
    if (i >= 0) return rename(v, size_t(i));
    make(v, probe_wide_.count(v.name) ? scopes_.front() : scopes_.back(), false);
  }

  void declare(Expr& v) {
    int i = lookup(v.name);
    if (i >= 0 && apply_) {
      bool here = scopes_.back().count(v.name) > 0;
      diags_.error(v.span, here ? v.name + " is already a variable in this block, so `let` cannot declare it again: "
                                      "drop the `let` to assign to it, or use another name"
                                : "let " + v.name + " shadows the " + v.name +
                                      " of an enclosing block, which bpftrace does not allow: drop the `let` to "
                                      "assign to that variable, or use another name");
    }
    if (i >= 0) return rename(v, size_t(i));
    make(v, scopes_.back(), true);
  }

  void open() { scopes_.emplace_back(); }
  void close() {
    for (const auto& [name, index] : scopes_.back())
      (vars_[index].by_let ? closed_let_ : closed_plain_).insert(name);
    scopes_.pop_back();
  }

  void statements(std::vector<StmtPtr>& list) {
    for (StmtPtr& s : list) statement(*s);
  }

  void block(std::vector<StmtPtr>& list) {
    open();
    statements(list);
    close();
  }

  void statement(Stmt& s) {
    switch (s.kind) {
      case StmtKind::Expr:
        expr(*s.expr);
        if (s.declares) declare(*s.target);
        break;
      case StmtKind::Assign:
        expr(*s.expr);
        if (s.target->kind != ExprKind::Variable) {
          expr(*s.target);
        } else if (s.declares) {
          declare(*s.target);
        } else if (s.op != Op::None) {
          read(*s.target);
        } else {
          assign_plain(*s.target);
        }
        break;
      case StmtKind::If:
        expr(*s.expr);
        block(s.body);
        block(s.else_body);
        break;
      case StmtKind::While:
        expr(*s.expr);
        block(s.body);
        break;
      case StmtKind::Unroll: block(s.body); break;
      case StmtKind::For: {
        expr(*s.expr);
        if (s.range_end) expr(*s.range_end);
        open();
        // A loop variable that a visible variable shadows is the checker's error to report.
        int i = lookup(s.target->name);
        if (i >= 0) rename(*s.target, size_t(i));
        else make(*s.target, scopes_.back(), true);
        statements(s.body);
        close();
        break;
      }
      case StmtKind::Return:
      case StmtKind::Break:
      case StmtKind::Continue: break;
    }
  }

  void expr(Expr& e) {
    if (e.kind == ExprKind::Variable) return read(e);
    if (e.kind == ExprKind::Block) {
      open();
      statements(e.stmts);
      for (ExprPtr& o : e.operands) expr(*o);
      close();
      return;
    }
    for (ExprPtr& o : e.operands) expr(*o);
  }

  Diagnostics& diags_;
  std::set<std::string> probe_wide_;
  bool apply_;
  std::vector<Scope> scopes_;
  std::vector<Var> vars_;
  std::map<std::string, uint32_t> made_;
  std::set<std::string> closed_plain_;  // assigned without let in a block that has ended
  std::set<std::string> closed_let_;    // declared with let (or a for loop) in one
  std::set<std::string> read_after_block_;
};

// Block expressions out of the tree (scopes.h says how).
class BlockMover {
 public:
  explicit BlockMover(Diagnostics& diags) : diags_(diags) {}

  void probe(ProbeBlock& p) {
    if (p.predicate) {
      std::vector<StmtPtr> none;
      value(p.predicate, none, false);
    }
    statements(p.body);
  }

 private:
  void statements(std::vector<StmtPtr>& list) {
    std::vector<StmtPtr> out;
    for (StmtPtr& s : list) {
      std::vector<StmtPtr> before;
      statement(s, before);
      for (StmtPtr& b : before) out.push_back(std::move(b));
      if (s) out.push_back(std::move(s));
    }
    list = std::move(out);
  }

  // `s` with its blocks moved into `before`; null when nothing of it is left.
  void statement(StmtPtr& s, std::vector<StmtPtr>& before) {
    switch (s->kind) {
      case StmtKind::Expr:
        if (s->expr->kind == ExprKind::Block) {
          // A block as a statement: its statements, then its value as a statement.
          Expr& b = *s->expr;
          statements(b.stmts);
          for (StmtPtr& x : b.stmts) before.push_back(std::move(x));
          if (b.operands.empty()) {
            s.reset();
            return;
          }
          ExprPtr v = std::move(b.operands[0]);
          s->span = v->span;
          s->expr = std::move(v);
          return statement(s, before);
        }
        value(s->expr, before, true);
        break;
      case StmtKind::Assign:
        value(s->expr, before, true);
        for (ExprPtr& k : s->target->operands) value(k, before, true);
        break;
      case StmtKind::If:
        value(s->expr, before, true);
        statements(s->body);
        statements(s->else_body);
        break;
      case StmtKind::While:
        value(s->expr, before, false);
        statements(s->body);
        break;
      case StmtKind::For:
        value(s->expr, before, true);
        if (s->range_end) value(s->range_end, before, true);
        statements(s->body);
        break;
      case StmtKind::Unroll: statements(s->body); break;
      case StmtKind::Return:
      case StmtKind::Break:
      case StmtKind::Continue: break;
    }
  }

  // `e` with its blocks replaced by their values. `always`: e is computed every time the
  // statement runs, once, so a block's statements may run just before the statement.
  void value(ExprPtr& e, std::vector<StmtPtr>& before, bool always) {
    if (e->kind == ExprKind::Block) {
      if (e->operands.empty()) {
        diags_.error(e->span, "this block has no value, so it cannot be used as one: end it with an expression "
                              "and no ';' ({ let $a = 1; $a + 1 })");
        return;
      }
      if (!e->stmts.empty() && !always) {
        diags_.error(e->span, "a block with statements cannot be used where its value is computed only sometimes "
                              "(a branch of ?:, the right of && or ||, a while condition, a predicate): assign it "
                              "to a variable first and use the variable");
        return;
      }
      statements(e->stmts);
      for (StmtPtr& x : e->stmts) before.push_back(std::move(x));
      ExprPtr v = std::move(e->operands[0]);
      e = std::move(v);
      return value(e, before, always);
    }
    bool short_circuit = e->kind == ExprKind::Binary && (e->op == Op::LogAnd || e->op == Op::LogOr);
    for (size_t i = 0; i < e->operands.size(); ++i) {
      bool sometimes = (e->kind == ExprKind::Ternary && i > 0) || (short_circuit && i == 1);
      value(e->operands[i], before, always && !sometimes);
    }
  }

  Diagnostics& diags_;
};

}  // namespace

void resolve_scopes(Program& prog, Diagnostics& diags) {
  for (ProbeBlock& p : prog.probes) {
    Scoper first(diags, {}, false);
    first.probe(p);
    Scoper(diags, first.read_after_block(), true).probe(p);
  }
  if (diags.has_errors()) return;
  for (ProbeBlock& p : prog.probes) BlockMover(diags).probe(p);
}

}  // namespace rawprobe::lang
