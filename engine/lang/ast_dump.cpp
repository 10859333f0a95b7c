#include "engine/lang/ast_dump.h"

#include "engine/base/type_names.h"

namespace rawprobe::lang {
namespace {

std::string escaped(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          const char* hex = "0123456789abcdef";
          out += "\\x";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

class Dumper {
 public:
  std::string out;

  void line(int depth, const std::string& text) {
    out.append(depth, ' ');
    out += text;
    out += '\n';
  }

  void expr(const Expr& e, int d) {
    std::string head;
    switch (e.kind) {
      case ExprKind::Integer: head = "int " + std::to_string(e.int_value); break;
      case ExprKind::String: head = "string " + escaped(e.str); break;
      case ExprKind::Builtin: head = "builtin " + e.name; break;
      case ExprKind::Variable: head = "variable " + e.name; break;
      case ExprKind::Map: head = "map " + e.name; break;
      case ExprKind::Call: head = "call " + e.name; break;
      case ExprKind::Unary: head = std::string("unary ") + op_spelling(e.op); break;
      case ExprKind::Binary: head = std::string("binary ") + op_spelling(e.op); break;
      case ExprKind::Ternary: head = "?:"; break;
      case ExprKind::IncDec: head = std::string(e.postfix ? "post" : "pre") + op_spelling(e.op); break;
      case ExprKind::Cast: head = "cast (" + type_name(e.cast_type) + ")"; break;
      case ExprKind::Field: head = std::string("field ") + (e.arrow ? "->" : ".") + e.name; break;
      case ExprKind::Tuple: head = "tuple"; break;
      case ExprKind::TupleElement: head = "tuple element " + std::to_string(e.int_value); break;
      case ExprKind::Deref: head = "deref"; break;
      case ExprKind::Index: head = "index"; break;
      case ExprKind::Sizeof: head = "sizeof"; break;
      case ExprKind::Offsetof: head = "offsetof " + e.name; break;
      case ExprKind::Block: head = "block"; break;
    }
    if (e.type.kind != TypeKind::None) head += " :: " + type_name(e.type);
    line(d, head);
    stmts(e.stmts, d + 1);
    for (const ExprPtr& o : e.operands) expr(*o, d + 1);
  }

  void stmts(const std::vector<StmtPtr>& body, int d) {
    for (const StmtPtr& s : body) stmt(*s, d);
  }

  void stmt(const Stmt& s, int d) {
    switch (s.kind) {
      case StmtKind::Expr: expr(*s.expr, d); break;
      case StmtKind::Assign:
        line(d, std::string("assign ") + op_spelling(s.op) + "=");
        expr(*s.target, d + 1);
        expr(*s.expr, d + 1);
        break;
      case StmtKind::If:
        line(d, "if");
        expr(*s.expr, d + 1);
        line(d + 1, "then");
        stmts(s.body, d + 2);
        if (s.has_else) {
          line(d + 1, "else");
          stmts(s.else_body, d + 2);
        }
        break;
      case StmtKind::While:
        line(d, "while");
        expr(*s.expr, d + 1);
        line(d + 1, "do");
        stmts(s.body, d + 2);
        break;
      case StmtKind::For:
        line(d, "for " + s.target->name);
        expr(*s.expr, d + 1);
        if (s.range_end) expr(*s.range_end, d + 1);
        line(d + 1, "do");
        stmts(s.body, d + 2);
        break;
      case StmtKind::Unroll:
        line(d, "unroll " + std::to_string(s.count));
        stmts(s.body, d + 1);
        break;
      case StmtKind::Return: line(d, "return"); break;
      case StmtKind::Break: line(d, "break"); break;
      case StmtKind::Continue: line(d, "continue"); break;
    }
  }
};

}  // namespace

std::string dump_expr(const Expr& e) {
  Dumper d;
  d.expr(e, 0);
  return d.out;
}

std::string dump_ast(const Program& prog) {
  Dumper d;
  d.line(0, "Program");
  for (const ProbeBlock& p : prog.probes) {
    std::string names;
    for (const ProbeSpec& s : p.specs) names += (names.empty() ? "" : ", ") + s.canonical();
    d.line(1, "probe " + names);
    if (p.predicate) {
      d.line(2, "predicate");
      d.expr(*p.predicate, 3);
    }
    d.stmts(p.body, 2);
  }
  return d.out;
}

}  // namespace rawprobe::lang
