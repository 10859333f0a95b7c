#include "engine/lang/parser.h"

#include <algorithm>
#include <iterator>
#include <optional>

#include "engine/ctypes/decl_parser.h"
#include "engine/lang/lexer.h"
#include "engine/lang/macro_expand.h"
#include "engine/lang/scopes.h"
#include "engine/lang/named_params.h"

namespace rawprobe::lang {
namespace {

// Thrown only inside this file to unwind to the nearest statement or probe boundary; never
// escapes parse_program.
struct SyntaxError {};

struct BinaryLevel {
  Tok tok;
  Op op;
  int prec;
};
// C precedence, lowest first.
constexpr BinaryLevel kBinary[] = {
    {Tok::OrOr, Op::LogOr, 1},   {Tok::AndAnd, Op::LogAnd, 2}, {Tok::Pipe, Op::BitOr, 3},
    {Tok::Caret, Op::BitXor, 4}, {Tok::Amp, Op::BitAnd, 5},    {Tok::EqEq, Op::Eq, 6},
    {Tok::Ne, Op::Ne, 6},        {Tok::Lt, Op::Lt, 7},         {Tok::Gt, Op::Gt, 7},
    {Tok::Le, Op::Le, 7},        {Tok::Ge, Op::Ge, 7},         {Tok::Shl, Op::Shl, 8},
    {Tok::Shr, Op::Shr, 8},      {Tok::Plus, Op::Add, 9},      {Tok::Minus, Op::Sub, 9},
    {Tok::Star, Op::Mul, 10},    {Tok::Slash, Op::Div, 10},    {Tok::Percent, Op::Mod, 10},
};

struct CompoundAssign {
  Tok tok;
  Op op;
};
constexpr CompoundAssign kCompound[] = {
    {Tok::PlusAssign, Op::Add},   {Tok::MinusAssign, Op::Sub}, {Tok::StarAssign, Op::Mul},
    {Tok::SlashAssign, Op::Div},  {Tok::PercentAssign, Op::Mod}, {Tok::AmpAssign, Op::BitAnd},
    {Tok::PipeAssign, Op::BitOr}, {Tok::CaretAssign, Op::BitXor}, {Tok::ShlAssign, Op::Shl},
    {Tok::ShrAssign, Op::Shr},
};

// Integer cast targets: bpftrace 0.17 spells them uint8..int64; u8..s64 are accepted too.
std::optional<Type> cast_target(const std::string& name) {
  static const struct { const char* a; const char* b; uint32_t bytes; bool is_signed; } kCasts[] = {
      {"u8", "uint8", 1, false},  {"u16", "uint16", 2, false}, {"u32", "uint32", 4, false},
      {"u64", "uint64", 8, false}, {"s8", "int8", 1, true},     {"s16", "int16", 2, true},
      {"s32", "int32", 4, true},   {"s64", "int64", 8, true},
  };
  for (const auto& c : kCasts)
    if (name == c.a || name == c.b) return Type::integer(c.bytes, c.is_signed);
  if (name == "bool") return Type::boolean();  // bpftrace 0.22 on
  return std::nullopt;
}

class Parser {
 public:
  Parser(const SourceFile& src, Diagnostics& diags, const PositionalParams& params)
      : src_(src), lex_(src), diags_(diags), params_(params) {}

  Program run() {
    Program prog;
    declarations(prog);
    while (!lex_.at_end()) {
      try {
        if (preamble_item(prog)) {
          declarations(prog);
          continue;
        }
        prog.probes.push_back(probe());
      } catch (const SyntaxError&) {
        skip_probe();
      }
    }
    if (!lex_.trivia_error().empty()) diags_.error(lex_.trivia_error_span(), lex_.trivia_error());
    if (std::string unknown = named_params_.unknown_error(); !unknown.empty()) diags_.error({0, 0}, unknown);
    prog.options = named_params_.declared();
    prog.options_help = named_params_.given("help").has_value();
    if (prog.probes.empty() && !diags_.has_errors())
      diags_.error({0, 0}, "no probes: a program needs at least one probe, e.g. BEGIN { printf(\"hi\\n\"); }");
    return prog;
  }

 private:
  // --- tokens ---
  Token& peek() {
    if (!cur_) {
      cur_ = lex_.next();
      if (cur_->kind == Tok::Invalid) fail(cur_->span, cur_->text);
    }
    return *cur_;
  }
  Token take() {
    peek();
    Token t = std::move(*cur_);
    cur_.reset();
    return t;
  }
  bool at(Tok k) { return peek().kind == k; }
  bool accept(Tok k) {
    if (!at(k)) return false;
    take();
    return true;
  }
  Token expect(Tok k, const char* context) {
    if (!at(k)) fail(peek().span, std::string("expected ") + tok_name(k) + " " + context + ", found " + describe(peek()));
    return take();
  }
  std::string describe(const Token& t) {
    if (t.kind == Tok::End) return "end of input";
    return "'" + std::string(src_.slice(t.span)) + "'";
  }
  [[noreturn]] void fail(Span span, std::string message) {
    diags_.error(span, std::move(message));
    throw SyntaxError{};
  }

  // Nesting guard: every recursive production holds one while it runs.
  struct Nest {
    Parser& p;
    Nest(Parser& parser, Span where) : p(parser) {
      if (++p.nesting_ > kMaxNesting) {
        --p.nesting_;
        p.fail(where, "nesting too deep (more than " + std::to_string(kMaxNesting) + " levels); split the expression or block");
      }
    }
    ~Nest() { --p.nesting_; }
  };

  ExprPtr node(ExprKind kind, Span span, std::vector<ExprPtr> operands = {}) {
    ExprPtr e = make_expr(kind, span);
    for (auto& o : operands) {
      e->depth = std::max(e->depth, o->depth + 1);
      e->span = Span::join(e->span, o->span);
    }
    e->operands = std::move(operands);
    if (e->depth > kMaxNesting * 4)
      fail(span, "expression too deep (more than " + std::to_string(kMaxNesting * 4) + " levels); split it using variables");
    return e;
  }

  // --- C declarations before the first probe (struct, union, enum, typedef) ---
  void declarations(Program& prog) {
    const std::string& text = src_.text();
    while (ctypes::starts_declaration(text, lex_.offset())) {
      uint32_t pos = lex_.offset();
      if (auto err = ctypes::parse_declaration(text, pos, *prog.c_types)) {
        diags_.error({err->begin, err->end}, err->message);
        // Past the declaration (its first ';' outside braces), so the probes after it are
        // still checked for syntax.
        int depth = 0;
        while (pos < text.size() && !(text[pos] == ';' && depth == 0)) {
          if (text[pos] == '{') ++depth;
          if (text[pos] == '}') --depth;
          ++pos;
        }
        if (pos < text.size()) ++pos;
      }
      lex_.reset(pos);
    }
  }

  // --- bpftrace 0.26's preamble: config blocks and macro definitions ---
  // True when one was read; false (nothing consumed) at a probe.
  bool preamble_item(Program& prog) {
    uint32_t mark = lex_.mark();
    Token word = lex_.next();
    Token after = word.kind == Tok::Ident ? lex_.next() : Token{};
    lex_.reset(mark);
    if (word.text == "config" && after.kind == Tok::Assign) {
      config_block(prog);
      return true;
    }
    if (word.text == "let" && after.kind == Tok::MapName) {
      map_declaration(prog);
      return true;
    }
    if (word.text == "macro" && after.kind == Tok::Ident) {
      macro_definition(prog);
      return true;
    }
    return false;
  }

  // config = { name = value; ... }: values are words, integers, true/false or strings.
  void config_block(Program& prog) {
    take();  // config
    expect(Tok::Assign, "after 'config'");
    expect(Tok::LBrace, "to open the config block");
    while (!accept(Tok::RBrace)) {
      if (accept(Tok::Semi)) continue;
      Token name = expect(Tok::Ident, "as a config variable's name (e.g. max_strlen = 128;)");
      expect(Tok::Assign, ("after the config variable " + name.text).c_str());
      Token value = take();
      ConfigEntry entry{name.text, value.text, name.span, value.span};
      if (value.kind == Tok::Integer) entry.value = std::string(src_.slice(value.span));
      else if (value.kind != Tok::Ident && value.kind != Tok::String)
        fail(value.span, "expected the value of config variable " + name.text + " (a word, a number or a string), found " + describe(value));
      if (value.kind == Tok::Integer) entry.value = std::to_string(value.value);
      prog.config.push_back(std::move(entry));
      if (!at(Tok::RBrace)) expect(Tok::Semi, "between config variables");
    }
  }

  // let @m = lruhash(100);
  void map_declaration(Program& prog) {
    Token kw = take();
    Token name = take();
    expect(Tok::Assign, ("after 'let " + name.text + "'").c_str());
    Token kind = expect(Tok::Ident, "as the map's type (hash, lruhash, percpuhash or percpulruhash)");
    expect(Tok::LParen, "after the map's type: it takes the most entries, e.g. lruhash(100)");
    Token n = expect(Tok::Integer, "as the map's most entries, e.g. lruhash(100)");
    Token close = expect(Tok::RParen, "after the map's most entries");
    expect(Tok::Semi, "after the map declaration");
    static const char* const kKinds[] = {"hash", "lruhash", "percpuhash", "percpulruhash"};
    if (std::find(std::begin(kKinds), std::end(kKinds), kind.text) == std::end(kKinds))
      fail(kind.span, "unknown map type '" + kind.text + "': use hash, lruhash, percpuhash or percpulruhash");
    if (n.value == 0 || n.value > UINT32_MAX) fail(n.span, "a map holds 1 to 4294967295 entries, not " + std::to_string(n.value));
    for (const MapDecl& d : prog.map_decls)
      if (d.name == name.text) fail(name.span, "map " + name.text + " is declared twice");
    prog.map_decls.push_back({name.text, kind.text, n.value, Span::join(kw.span, close.span)});
  }

  void macro_definition(Program& prog) {
    Token kw = take();
    MacroDef def;
    Token name = expect(Tok::Ident, "after 'macro'");
    def.name = name.text;
    def.span = Span::join(kw.span, name.span);
    expect(Tok::LParen, "after the macro's name");
    if (!accept(Tok::RParen)) {
      do {
        Token p = take();
        if (p.kind != Tok::VarName && p.kind != Tok::MapName && p.kind != Tok::Ident)
          fail(p.span, "a macro parameter is a variable ($a), a map (@m) or a name (x), not " + describe(p));
        def.params.push_back(p.text);
        def.param_spans.push_back(p.span);
      } while (accept(Tok::Comma));
      expect(Tok::RParen, "to close the macro's parameters");
    }
    // As braced_block, noting whether the last statement is an expression with no ';' after
    // it: that expression is the macro's value.
    Nest n(*this, peek().span);
    expect(Tok::LBrace, "to open the macro's body");
    bool value_last = false;
    while (!at(Tok::RBrace)) {
      if (at(Tok::End)) fail(peek().span, "expected '}' to close the macro, found end of input");
      if (accept(Tok::Semi)) {
        value_last = false;
        continue;
      }
      bool block_like = false;
      def.body.push_back(statement(block_like));
      value_last = !block_like && def.body.back()->kind == StmtKind::Expr && at(Tok::RBrace);
      if (!block_like && !at(Tok::RBrace)) expect(Tok::Semi, "after the statement");
    }
    take();
    if (value_last) {
      def.value = std::move(def.body.back()->expr);
      def.body.pop_back();
    }
    for (const MacroDef& m : prog.macros)
      if (m.name == def.name) fail(name.span, "macro " + def.name + " is defined twice");
    prog.macros.push_back(std::move(def));
  }

  // --- probes ---
  ProbeBlock probe() {
    ProbeBlock block;
    bool first = true;
    do {
      Token ap = lex_.attach_point();
      if (ap.kind == Tok::Invalid) fail(ap.span, ap.text);
      if (ap.text.empty()) {
        Span s{ap.span.begin, ap.span.begin + 1};
        fail(s, first ? "expected a probe (e.g. 'BEGIN' or 'uprobe:/bin/bash:readline'), found '" +
                            std::string(src_.slice(s)) + "'"
                      : "expected a probe after ','");
      }
      first = false;
      ProbeSpec spec;
      if (Status parsed = parse_probe_spec(ap.text, ap.span, spec); parsed) {
        block.specs.push_back(std::move(spec));
      } else {
        diags_.error(ap.span, parsed.error().what);  // keep going: the body may hold more errors
      }
      block.span = block.specs.empty() ? ap.span : Span::join(block.specs.front().span, ap.span);
    } while (lex_.peek_char() == ',' && (lex_.reset(lex_.offset() + 1), true));
    if (lex_.peek_char() == '/') {
      take();  // '/'
      in_predicate_ = true;
      block.predicate = expr();
      in_predicate_ = false;
      expect(Tok::Slash, "to close the predicate");
    }
    block.body = braced_block("to open the probe's body");
    return block;
  }

  // Skips to just after the '}' closing the current probe's body.
  void skip_probe() {
    in_predicate_ = false;
    nesting_ = 0;
    int depth = 0;
    cur_.reset();
    while (true) {
      Token t = lex_.next();
      if (t.kind == Tok::End) return;
      if (t.kind == Tok::LBrace) ++depth;
      if (t.kind == Tok::RBrace && --depth <= 0) return;
    }
  }

  // --- statements ---
  std::vector<StmtPtr> braced_block(const char* context) {
    Nest n(*this, peek().span);
    expect(Tok::LBrace, context);
    std::vector<StmtPtr> out;
    while (!at(Tok::RBrace)) {
      if (at(Tok::End)) fail(peek().span, "expected '}' to close the block, found end of input");
      if (accept(Tok::Semi)) continue;
      try {
        bool block_like = false;
        out.push_back(statement(block_like));
        if (!block_like && !at(Tok::RBrace))
          expect(Tok::Semi, "after the statement");
      } catch (const SyntaxError&) {
        sync_statement();
      }
    }
    take();
    return out;
  }

  // After an error inside a block: skip to after the next ';' or to the block's '}'.
  void sync_statement() {
    int depth = 0;
    while (true) {
      Tok k;
      try {
        k = peek().kind;
      } catch (const SyntaxError&) {
        cur_.reset();
        continue;
      }
      if (k == Tok::End) return;
      if (depth == 0 && k == Tok::RBrace) return;
      take();
      if (k == Tok::LBrace) ++depth;
      if (k == Tok::RBrace) --depth;
      if (depth == 0 && k == Tok::Semi) return;
    }
  }

  StmtPtr stmt(StmtKind kind, Span span) {
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->span = span;
    return s;
  }

  StmtPtr statement(bool& block_like) {
    Token& t = peek();
    Span start = t.span;
    switch (t.kind) {
      case Tok::KwIf: block_like = true; return if_statement();
      case Tok::KwWhile: {
        block_like = true;
        take();
        auto s = stmt(StmtKind::While, start);
        s->expr = parenthesised_condition("'while'");
        s->body = braced_block("to open the while body");
        return s;
      }
      case Tok::KwUnroll: {
        block_like = true;
        take();
        auto s = stmt(StmtKind::Unroll, start);
        expect(Tok::LParen, "after 'unroll'");
        Token n = expect(Tok::Integer, "as the unroll count");
        s->count = n.value;
        Token close = expect(Tok::RParen, "after the unroll count");
        s->span = Span::join(start, close.span);
        if (n.value < 1) diags_.error(s->span, "unroll minimum value is 1");
        if (n.value > 100) diags_.error(s->span, "unroll maximum value is 100");
        s->body = braced_block("to open the unroll body");
        return s;
      }
      case Tok::KwReturn: take(); return stmt(StmtKind::Return, start);
      case Tok::KwBreak: take(); return stmt(StmtKind::Break, start);
      case Tok::KwContinue: take(); return stmt(StmtKind::Continue, start);
      case Tok::KwElse: fail(start, "'else' without a matching 'if'");
      case Tok::Ident:
        if (t.text == "let") return let_statement();
        if (t.text == "_" && discard_follows()) return discard_statement();
        if (t.text != "for" || !for_follows()) break;
        block_like = true;
        return for_statement();
      default: break;
    }
    ExprPtr e = expr();
    Op compound = Op::None;
    bool assign = at(Tok::Assign);
    for (const CompoundAssign& c : kCompound)
      if (at(c.tok)) assign = true, compound = c.op;
    if (!assign) {
      auto s = stmt(StmtKind::Expr, e->span);
      s->expr = std::move(e);
      return s;
    }
    Token op = take();
    if (e->kind == ExprKind::TupleElement)  // bpftrace 0.17's words
      fail(e->span, "Tuples are immutable once created. Consider creating a new tuple and assigning it instead.");
    if (e->kind != ExprKind::Map && e->kind != ExprKind::Variable)
      fail(op.span, "cannot assign to this expression: the left of '" + std::string(src_.slice(op.span)) +
                        "' must be a map (@m, @m[k]) or a variable ($x)");
    auto s = stmt(StmtKind::Assign, e->span);
    s->op = compound;
    s->op_span = op.span;
    s->target = std::move(e);
    s->expr = expr();
    s->span = Span::join(s->span, s->expr->span);
    return s;
  }

  // `_ = expr;` (bpftrace 0.26's discard expression): with `_` peeked, whether '=' follows.
  bool discard_follows() {
    uint32_t mark = lex_.mark();
    Token next = lex_.next();
    lex_.reset(mark);
    return next.kind == Tok::Assign;
  }

  // `_ = expr;`: expr computed and its value dropped, as a statement of its own.
  StmtPtr discard_statement() {
    take();
    take();
    ExprPtr e = expr();
    auto s = stmt(StmtKind::Expr, e->span);
    s->expr = std::move(e);
    return s;
  }

  // `for` starts a loop when a loop variable or '(' follows; otherwise it is a name.
  bool for_follows() {
    char c = lex_.peek_char();
    return c == '(' || c == '$';
  }

  // for ($v : @map) { ... }, for ($v : start..end) { ... }, or either without the
  // parentheses (bpftrace 0.26's tools write `for $j : a..b {`). Range bounds are unary
  // expressions: a wider one needs parentheses, as in bpftrace.
  StmtPtr for_statement() {
    Nest n(*this, peek().span);
    Token kw = take();
    auto s = stmt(StmtKind::For, kw.span);
    bool parens = accept(Tok::LParen);
    Token var = expect(Tok::VarName, "as the for loop's variable (for ($kv : @map) or for ($i : 0..10))");
    s->target = node(ExprKind::Variable, var.span);
    s->target->name = var.text;
    expect(Tok::Colon, "after the for loop's variable");
    s->expr = unary();
    if (at(Tok::Dot)) {
      Token first = take();
      if (!at(Tok::Dot)) fail(first.span, "expected '..' between the range's start and end (for ($i : 0..10))");
      take();
      s->range_end = unary();
    } else if (s->expr->kind != ExprKind::Map || !s->expr->operands.empty()) {
      fail(s->expr->span, "a for loop iterates over a whole map (for ($kv : @m)) or a range (for ($i : 0..10))");
    }
    if (parens) expect(Tok::RParen, "to close the for loop's header");
    s->span = Span::join(kw.span, s->range_end ? s->range_end->span : s->expr->span);
    s->body = braced_block("to open the for body");
    return s;
  }


  // The condition after if/while: `( expr )` (bpftrace 0.17) or, since bpftrace 0.22, any
  // expression up to the body's '{' (`if $x {`, `while $i < 5 {`). Parentheses are part of the
  // expression, so the condition's extent includes them as bpftrace's carets do.
  ExprPtr parenthesised_condition(const std::string& keyword) {
    if (at(Tok::LBrace)) fail(peek().span, "expected a condition after " + keyword + ", found '{'");
    return expr();
  }

  StmtPtr if_statement() {
    Nest n(*this, peek().span);
    Token kw = take();
    auto s = stmt(StmtKind::If, kw.span);
    s->expr = parenthesised_condition("'if'");
    s->body = braced_block("to open the if body");
    if (accept(Tok::KwElse)) {
      s->has_else = true;
      if (at(Tok::KwIf)) s->else_body.push_back(if_statement());
      else s->else_body = braced_block("after 'else'");
    }
    return s;
  }

  // `let $x;`, `let $x = expr;`, `let $x: type = expr;` (bpftrace 0.21 on): declares $x in
  // the enclosing block. Without a value it starts as 0 (or the declared type's zero).
  StmtPtr let_statement() {
    Token kw = take();
    Token var = expect(Tok::VarName, "after 'let' (e.g. let $x = 1;)");
    std::optional<Type> declared;
    if (accept(Tok::Colon)) {
      Token type = expect(Tok::Ident, "as the variable's type (e.g. let $x: uint32 = 1;)");
      declared = cast_target(type.text);
      if (!declared) fail(type.span, "unknown type '" + type.text + "' for " + var.text + ": use one of uint8 .. uint64, int8 .. int64, bool");
    }
    ExprPtr value;
    Span op_span = var.span;
    if (at(Tok::Assign)) {
      op_span = take().span;
      value = expr();
    } else if (!declared) {
      // `let $x;` only names the variable: its first assignment gives it a type, as 0.26 lets
      // `let $b; $b = "hello";` do. It declares $x in its block (scopes.h) and does nothing.
      auto s = stmt(StmtKind::Expr, Span::join(kw.span, var.span));
      s->expr = integer_literal(var.span, 0);
      s->target = node(ExprKind::Variable, var.span);
      s->target->name = var.text;
      s->declares = true;
      return s;
    } else {
      value = integer_literal(var.span, 0);
    }
    if (declared) {
      std::vector<ExprPtr> ops;
      ops.push_back(std::move(value));
      value = node(ExprKind::Cast, var.span, std::move(ops));
      value->cast_type = *declared;
    }
    auto s = stmt(StmtKind::Assign, Span::join(kw.span, value->span));
    s->target = node(ExprKind::Variable, var.span);
    s->target->name = var.text;
    s->declares = true;
    s->op_span = op_span;
    s->expr = std::move(value);
    return s;
  }

  // --- expressions ---
  ExprPtr expr() {
    Nest n(*this, peek().span);
    ExprPtr cond = binary(1);
    if (!at(Tok::Question)) return cond;
    take();
    ExprPtr then = expr();
    expect(Tok::Colon, "in the conditional expression (a ? b : c)");
    ExprPtr otherwise = expr();
    std::vector<ExprPtr> ops;
    ops.push_back(std::move(cond));
    ops.push_back(std::move(then));
    ops.push_back(std::move(otherwise));
    Span s = ops[0]->span;
    return node(ExprKind::Ternary, s, std::move(ops));
  }

  const BinaryLevel* binary_op() {
    Tok k = peek().kind;
    // Inside a predicate, a '/' followed by '{' closes it rather than dividing.
    if (k == Tok::Slash && in_predicate_ && lex_.peek_char() == '{') return nullptr;
    for (const BinaryLevel& b : kBinary)
      if (b.tok == k) return &b;
    return nullptr;
  }

  // Precedence climbing; left-associative at every level.
  ExprPtr binary(int min_prec) {
    ExprPtr left = unary();
    while (const BinaryLevel* b = binary_op()) {
      if (b->prec < min_prec) break;
      take();
      ExprPtr right;
      {
        Nest n(*this, peek().span);
        right = binary(b->prec + 1);
      }
      std::vector<ExprPtr> ops;
      ops.push_back(std::move(left));
      ops.push_back(std::move(right));
      Span s = ops[0]->span;
      left = node(ExprKind::Binary, s, std::move(ops));
      left->op = b->op;
    }
    return left;
  }

  ExprPtr unary() {
    Token& t = peek();
    Span start = t.span;
    Op op = Op::None;
    switch (t.kind) {
      case Tok::Minus: op = Op::Neg; break;
      case Tok::Tilde: op = Op::BitNot; break;
      case Tok::Bang: op = Op::LogNot; break;
      case Tok::PlusPlus:
      case Tok::MinusMinus: {
        bool inc = t.kind == Tok::PlusPlus;
        take();
        Nest n(*this, start);
        ExprPtr target = unary();
        check_incdec_target(*target, start);
        std::vector<ExprPtr> ops;
        ops.push_back(std::move(target));
        ExprPtr e = node(ExprKind::IncDec, start, std::move(ops));
        e->op = inc ? Op::Inc : Op::Dec;
        return e;
      }
      case Tok::Star: {
        take();
        Nest n(*this, start);
        std::vector<ExprPtr> ops;
        ops.push_back(unary());
        return node(ExprKind::Deref, start, std::move(ops));
      }
      case Tok::Amp:
        fail(start, "the address-of operator '&' is not supported (bpftrace 0.17 has none); "
                    "take a field's address with pointer arithmetic, e.g. (uint64)$p + offsetof(struct foo, field)");
      case Tok::LParen: {
        if (ExprPtr c = try_cast()) return c;
        return postfix(primary());
      }
      default: return postfix(primary());
    }
    take();
    Nest n(*this, start);
    std::vector<ExprPtr> ops;
    ops.push_back(unary());
    ExprPtr e = node(ExprKind::Unary, start, std::move(ops));
    e->op = op;
    return e;
  }

  // After '(' (already taken) a C type name: `struct foo`, `union u`, `enum e` or a bare
  // name, then any number of '*'. Nothing is consumed when none is there; a bare name with no
  // '*' counts only when it is one of the language's integer types (uint8 .. int64), so
  // `(x)` stays an expression.
  std::optional<TypeName> type_name_here(bool bare_needs_star) {
    uint32_t mark = lex_.mark();
    Token first = lex_.next();
    TypeName t;
    t.span = first.span;
    if (first.kind != Tok::Ident) {
      lex_.reset(mark);
      return std::nullopt;
    }
    if (first.text == "struct" || first.text == "union" || first.text == "enum") {
      Token tag = lex_.next();
      if (tag.kind != Tok::Ident) {
        lex_.reset(mark);
        return std::nullopt;
      }
      t.tag = first.text == "struct" ? ctypes::CKind::Struct : first.text == "union" ? ctypes::CKind::Union : ctypes::CKind::Enum;
      t.name = tag.text;
      t.span = Span::join(first.span, tag.span);
    } else {
      t.tag = ctypes::CKind::Typedef;
      t.name = first.text;
    }
    while (true) {
      uint32_t before = lex_.mark();
      Token star = lex_.next();
      if (star.kind != Tok::Star) {
        lex_.reset(before);
        break;
      }
      ++t.pointers;
      t.span = Span::join(t.span, star.span);
    }
    if (t.tag == ctypes::CKind::Typedef && t.pointers == 0 && bare_needs_star && !cast_target(t.name)) {
      lex_.reset(mark);
      return std::nullopt;
    }
    return t;
  }

  // `(type) operand`, when the parentheses hold a type; null otherwise (nothing consumed).
  // `(int8[8]) x` and `(bool[]) x` (bpftrace 0.22 on) cast an integer to an array of integers
  // or bools: Expr::int_value is then the element count plus one (1: to be worked out from
  // the operand's size); the element type is cast_type.
  ExprPtr try_cast() {
    uint32_t mark = lex_.mark();
    Token open = *cur_;
    std::optional<TypeName> type = type_name_here(true);
    Token close = type ? lex_.next() : Token{};
    uint64_t array_count = 0;
    bool scalar = type && type->tag == ctypes::CKind::Typedef && type->pointers == 0;
    if (scalar && close.kind == Tok::LBracket) {
      Token count = lex_.next();
      if (count.kind == Tok::Integer) {
        if (count.value == 0 || count.value > UINT32_MAX)
          fail(count.span, "an array cast's count must be from 1 to " + std::to_string(UINT32_MAX) +
                               ", or left out to take it from the value's size: (uint8[]) x");
        array_count = count.value + 1;
        close = lex_.next();
      } else {
        array_count = 1;
        close = count;
      }
      close = close.kind == Tok::RBracket ? lex_.next() : Token{};
    }
    if (!type || close.kind != Tok::RParen) {
      lex_.reset(mark);
      return nullptr;
    }
    cur_.reset();
    Nest n(*this, open.span);
    std::vector<ExprPtr> ops;
    ops.push_back(unary());
    ExprPtr e = node(ExprKind::Cast, open.span, std::move(ops));
    if (scalar) e->cast_type = *cast_target(type->name);
    else e->type_name = *type;
    e->int_value = array_count;
    return e;
  }

  // sizeof(type) or sizeof(expr), just past "sizeof".
  ExprPtr sizeof_expr(const Token& kw) {
    expect(Tok::LParen, "after sizeof");
    Nest n(*this, kw.span);
    ExprPtr e;
    if (std::optional<TypeName> type = type_name_here(true)) {
      e = node(ExprKind::Sizeof, kw.span);
      e->type_name = *type;
    } else {
      std::vector<ExprPtr> ops;
      ops.push_back(expr());
      e = node(ExprKind::Sizeof, kw.span, std::move(ops));
    }
    expect(Tok::RParen, "to close sizeof");
    e->span = Span::join(e->span, {kw.span.begin, lex_.offset()});
    return e;
  }

  // offsetof(struct foo, field) or offsetof(struct foo, a.b), just past "offsetof".
  ExprPtr offsetof_expr(const Token& kw) {
    expect(Tok::LParen, "after offsetof");
    std::optional<TypeName> type = type_name_here(false);
    if (!type || type->pointers) fail(peek().span, "offsetof needs a struct or union type first, e.g. offsetof(struct foo, field)");
    expect(Tok::Comma, "after offsetof's type");
    std::string path = expect(Tok::Ident, "as the field offsetof measures").text;
    while (accept(Tok::Dot)) path += "." + expect(Tok::Ident, "after '.' in offsetof's field").text;
    expect(Tok::RParen, "to close offsetof");
    ExprPtr e = node(ExprKind::Offsetof, {kw.span.begin, lex_.offset()});
    e->type_name = *type;
    e->name = path;
    return e;
  }

  void check_incdec_target(const Expr& e, Span op) {
    if (e.kind != ExprKind::Map && e.kind != ExprKind::Variable)
      fail(op, "'" + std::string(src_.slice(op)) + "' needs a map or a variable as its operand");
  }

  ExprPtr postfix(ExprPtr e) {
    while (true) {
      Token& t = peek();
      if (t.kind == Tok::PlusPlus || t.kind == Tok::MinusMinus) {
        Token op = take();
        check_incdec_target(*e, op.span);
        std::vector<ExprPtr> ops;
        ops.push_back(std::move(e));
        Span s = Span::join(ops[0]->span, op.span);
        e = node(ExprKind::IncDec, s, std::move(ops));
        e->op = op.kind == Tok::PlusPlus ? Op::Inc : Op::Dec;
        e->postfix = true;
      } else if (t.kind == Tok::Dot && lex_.peek_char() == '.') {
        return e;  // `..` of a for loop's range
      } else if (t.kind == Tok::Dot || t.kind == Tok::Arrow) {
        bool arrow = t.kind == Tok::Arrow;
        take();
        if (!arrow && at(Tok::Integer)) {
          e = tuple_element(std::move(e));
          continue;
        }
        Token field = expect(Tok::Ident, arrow ? "after '->'" : "after '.'");
        std::vector<ExprPtr> ops;
        ops.push_back(std::move(e));
        Span s = Span::join(ops[0]->span, field.span);
        e = node(ExprKind::Field, s, std::move(ops));
        e->name = field.text;
        e->arrow = arrow;
      } else if (t.kind == Tok::LBracket) {
        take();
        Nest n(*this, t.span);
        std::vector<ExprPtr> ops;
        ops.push_back(std::move(e));
        ops.push_back(expr());
        expect(Tok::RBracket, "to close the index");
        Span s{ops[0]->span.begin, lex_.offset()};
        e = node(ExprKind::Index, s, std::move(ops));
        e->span = s;
      } else {
        return e;
      }
    }
  }

  // `base.N`, just past the '.': element N of a tuple.
  ExprPtr tuple_element(ExprPtr base) {
    Token index = take();
    std::vector<ExprPtr> ops;
    ops.push_back(std::move(base));
    Span s = Span::join(ops[0]->span, index.span);
    ExprPtr e = node(ExprKind::TupleElement, s, std::move(ops));
    e->int_value = index.value;
    return e;
  }

  // Comma-separated expressions up to `close`.
  std::vector<ExprPtr> list(Tok close, const char* context) {
    std::vector<ExprPtr> items;
    if (accept(close)) return items;
    do {
      items.push_back(expr());
    } while (accept(Tok::Comma));
    expect(close, context);
    return items;
  }

  ExprPtr primary() {
    Token t = take();
    switch (t.kind) {
      case Tok::Integer: {
        ExprPtr e = node(ExprKind::Integer, t.span);
        e->int_value = t.value;
        return e;
      }
      case Tok::String: {
        ExprPtr e = node(ExprKind::String, t.span);
        e->str = std::move(t.text);
        return e;
      }
      case Tok::Positional: return positional_number(t);
      case Tok::ParamCount: return integer_literal(t.span, params_.values.size());
      case Tok::VarName: {
        ExprPtr e = node(ExprKind::Variable, t.span);
        e->name = std::move(t.text);
        return e;
      }
      case Tok::MapName: {
        std::vector<ExprPtr> keys;
        Span span = t.span;
        if (at(Tok::LBracket)) {
          take();
          Nest n(*this, t.span);
          keys = list(Tok::RBracket, "to close the map key");
          if (keys.empty()) fail(t.span, "empty map key: write " + t.text + " for a map without keys");
          span.end = lex_.offset();  // just past the ']'
        }
        ExprPtr e = node(ExprKind::Map, span, std::move(keys));
        e->span = span;
        e->name = std::move(t.text);
        return e;
      }
      case Tok::Ident: {
        if (t.text == "sizeof" && at(Tok::LParen)) return sizeof_expr(t);
        if (t.text == "offsetof" && at(Tok::LParen)) return offsetof_expr(t);
        if (!at(Tok::LParen) && (t.text == "true" || t.text == "false"))
          return bool_literal(t.span, t.text == "true");  // bpftrace 0.22's booleans
        if (!at(Tok::LParen)) {
          ExprPtr e = node(ExprKind::Builtin, t.span);
          e->name = std::move(t.text);
          return e;
        }
        take();
        Nest n(*this, t.span);
        if (t.text == "str" && (at(Tok::Positional) || at(Tok::ParamCount))) return positional_text(t.span);
        if (t.text == "getopt") return named_option(t.span, list(Tok::RParen, "to close getopt's arguments"));
        std::vector<ExprPtr> args = list(Tok::RParen, "to close the call's arguments");
        ExprPtr e = node(ExprKind::Call, t.span, std::move(args));
        e->span = Span::join(t.span, e->span);
        e->span.end = std::max(e->span.end, lex_.offset());
        e->name = std::move(t.text);
        return e;
      }
      case Tok::LBrace: return block_expression(t);
      case Tok::LParen: {
        Nest n(*this, t.span);
        if (record_follows()) return record(t);
        std::vector<ExprPtr> items;
        bool trailing_comma = false;
        if (!at(Tok::RParen)) {
          do {
            if ((trailing_comma = !items.empty() && at(Tok::RParen))) break;  // `(1,)`, a 1-tuple
            items.push_back(expr());
          } while (accept(Tok::Comma));
        }
        expect(Tok::RParen, "to close '('");
        if (items.empty()) fail(t.span, "empty parentheses: expected an expression");
        if (items.size() == 1 && !trailing_comma) {
          // The parentheses belong to the expression's extent (bpftrace's carets include them).
          items[0]->span = Span::join(items[0]->span, {t.span.begin, lex_.offset()});
          return std::move(items[0]);
        }
        ExprPtr e = node(ExprKind::Tuple, t.span, std::move(items));
        e->span.end = std::max(e->span.end, lex_.offset());
        return e;
      }
      default:
        // Leave the token for resynchronisation: it may be the ';' ending this statement.
        cur_ = t;
        fail(t.span, "expected an expression, found " + describe(t));
    }
  }

  // Just past '(': `name =` starts a record (bpftrace 0.26's named tuple, `(a=1, b="x")`).
  bool record_follows() {
    if (cur_) return false;
    uint32_t mark = lex_.mark();
    Token name = lex_.next();
    Token eq = name.kind == Tok::Ident ? lex_.next() : name;
    lex_.reset(mark);
    return name.kind == Tok::Ident && eq.kind == Tok::Assign;
  }

  // `(a=1, b="x")`, just past '(': a tuple whose fields have names, each given once.
  ExprPtr record(const Token& open) {
    std::vector<ExprPtr> items;
    std::vector<std::string> names;
    do {
      if (!names.empty() && at(Tok::RParen)) break;  // a trailing ',' as in `(a=1,)`
      Token name = expect(Tok::Ident, "as a record field's name (a record is (name=value, ...))");
      for (const std::string& n : names)
        if (n == name.text) fail(name.span, "the record names field '" + name.text + "' twice: give each field once");
      expect(Tok::Assign, ("after the record field '" + name.text + "' (a record is (name=value, ...))").c_str());
      names.push_back(name.text);
      items.push_back(expr());
    } while (accept(Tok::Comma));
    expect(Tok::RParen, "to close the record");
    ExprPtr e = node(ExprKind::Tuple, open.span, std::move(items));
    e->names = std::move(names);
    e->span.end = std::max(e->span.end, lex_.offset());
    return e;
  }

  // `{ stmt; stmt; value }` (bpftrace 0.26's block expression), just past '{': the
  // statements, then the value, an expression with no ';' after it before the '}'. A block
  // that ends with ';' has no value: it can only be a statement.
  ExprPtr block_expression(const Token& open) {
    Nest n(*this, open.span);
    ExprPtr e = node(ExprKind::Block, open.span);
    while (!at(Tok::RBrace)) {
      if (at(Tok::End)) fail(peek().span, "expected '}' to close the block, found end of input");
      if (accept(Tok::Semi)) continue;
      bool block_like = false;
      StmtPtr st = statement(block_like);
      if (!block_like && st->kind == StmtKind::Expr && !st->declares && at(Tok::RBrace)) {
        e->operands.push_back(std::move(st->expr));
        break;
      }
      e->stmts.push_back(std::move(st));
      if (!block_like && !at(Tok::RBrace)) expect(Tok::Semi, "after the statement");
    }
    e->span.end = take().span.end;
    return e;
  }

  // getopt("name"[, default[, "help"]]) (bpftrace 0.24 on): the value of `--name=VALUE` or
  // `--name` given after `--` on the command line, else the default, as a literal. The
  // default's kind is the option's: a number, a string, or (true/false, or none) a boolean.
  ExprPtr named_option(Span call, std::vector<ExprPtr> args) {
    if (args.empty() || args.size() > 3 || args[0]->kind != ExprKind::String)
      fail(call, "getopt takes an option name, a default and a help text: getopt(\"depth\", 35, \"Maximum depth\")");
    if (args.size() == 3 && args[2]->kind != ExprKind::String)
      fail(args[2]->span, "getopt's third argument is the option's help text, a string");
    if (args.size() >= 2 && args[1]->kind != ExprKind::String && args[1]->kind != ExprKind::Integer)
      fail(args[1]->span, "getopt's default must be a literal: a number, a string, true or false");
    const std::string& name = args[0]->str;
    std::string text = args.size() >= 2 ? std::string(src_.slice(args[1]->span)) : "";
    bool is_bool = args.size() < 2 || text == "true" || text == "false";
    bool is_string = !is_bool && args[1]->kind == ExprKind::String;
    std::optional<std::string> given = named_params_.given(name);
    Span where{call.begin, lex_.offset()};
    named_params_.declare(name, is_bool ? "bool" : is_string ? "string" : "int",
                          args.size() >= 2 ? text : "false", args.size() == 3 ? args[2]->str : "");
    if (!given) {
      if (args.size() < 2) return bool_literal(where, false);
      args[1]->span = where;
      return std::move(args[1]);
    }
    if (is_string) {
      ExprPtr e = node(ExprKind::String, where);
      e->str = *given;
      return e;
    }
    if (is_bool) {
      if (*given == "" || *given == "true" || *given == "1") return bool_literal(where, true);
      if (*given == "false" || *given == "0") return bool_literal(where, false);
      fail(where, "option --" + name + " is a boolean: give --" + name + ", --" + name + "=true or --" + name + "=false, not '" + *given + "'");
    }
    char* end = nullptr;
    errno = 0;
    long long v = std::strtoll(given->c_str(), &end, 0);
    if (given->empty() || *end || errno)
      fail(where, "option --" + name + " takes an integer (e.g. --" + name + "=" + text + "), not '" + *given + "'");
    return integer_literal(where, uint64_t(v));
  }

  // `true` or `false`: an Integer literal named so, which the checker types bool.
  ExprPtr bool_literal(Span span, bool value) {
    ExprPtr e = integer_literal(span, value);
    e->name = value ? "true" : "false";
    return e;
  }

  ExprPtr integer_literal(Span span, uint64_t value) {
    ExprPtr e = node(ExprKind::Integer, span);
    e->int_value = value;
    return e;
  }

  // $N where a number is wanted: its integer (0 when unset). A parameter that is not a number
  // is reported and read as 0, so the rest of the script is still checked.
  ExprPtr positional_number(const Token& t) {
    if (t.value == 0) diags_.error(t.span, positional_zero_error());
    std::optional<int64_t> v = params_.number(t.value);
    if (t.value != 0 && !v) diags_.error(t.span, params_.not_a_number_error(t.value));
    return integer_literal(t.span, static_cast<uint64_t>(v.value_or(0)));
  }

  // str($N) and str($N, LEN), just past "str(": the parameter's text as a string literal.
  ExprPtr positional_text(Span str_span) {
    Token param = take();
    if (param.kind == Tok::ParamCount) {
      Span call{str_span.begin, param.span.end + 1};
      fail(call, "use $#, not str($#)");
    }
    if (param.value == 0) diags_.error(param.span, positional_zero_error());
    std::string text = params_.text(param.value);
    if (accept(Tok::Comma)) {
      Token len = expect(Tok::Integer, "as str()'s length (with a positional parameter it must be a number)");
      if (len.value < text.size()) text.resize(len.value);
    }
    expect(Tok::RParen, "to close the call's arguments");
    ExprPtr e = node(ExprKind::String, {str_span.begin, lex_.offset()});
    e->str = std::move(text);
    return e;
  }

  const SourceFile& src_;
  Lexer lex_;
  Diagnostics& diags_;
  const PositionalParams& params_;
  NamedParams named_params_{params_};
  std::optional<Token> cur_;
  uint32_t nesting_ = 0;
  bool in_predicate_ = false;
};

}  // namespace

Program parse_program(const SourceFile& src, Diagnostics& diags, const PositionalParams& params) {
  Parser p(src, diags, params);
  Program prog = p.run();
  if (!diags.has_errors()) expand_macros(prog, diags);
  if (!diags.has_errors()) resolve_scopes(prog, diags);
  return prog;
}

}  // namespace rawprobe::lang
