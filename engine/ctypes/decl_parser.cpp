#include "engine/ctypes/decl_parser.h"

#include <cctype>
#include <vector>

#include "engine/base/suggest.h"

namespace rawprobe::ctypes {
namespace {

struct Error {
  DeclError e;
};

enum class T : uint8_t { End, Ident, Number, Punct };

struct Tok {
  T kind = T::End;
  uint32_t begin = 0, end = 0;
  std::string text;   // Ident or Punct
  uint64_t value = 0; // Number
};

// Words that qualify a type without changing its layout, or store-class words a header may
// carry; all skipped.
bool is_ignored_word(std::string_view w) {
  static const char* kWords[] = {"const",    "volatile",  "restrict", "__restrict", "__restrict__",
                                 "static",   "extern",    "inline",   "register",   "__extension__",
                                 "__const",  "__volatile__", "__inline", "__user",  "__kernel",
                                 "__iomem",  "__rcu",     "__percpu", "__force"};
  for (const char* k : kWords)
    if (w == k) return true;
  return false;
}

bool is_base_word(std::string_view w) {
  static const char* kWords[] = {"void",  "char",   "short",  "int",      "long",    "signed",
                                 "unsigned", "_Bool", "bool", "float", "double", "__signed__"};
  for (const char* k : kWords)
    if (w == k) return true;
  return false;
}

class DeclParser {
 public:
  DeclParser(std::string_view text, uint32_t pos, ScriptTypes& types) : text_(text), pos_(pos), types_(types) {
    advance();
  }

  uint32_t declaration() {
    Tok first = cur_;
    if (accept_word("typedef")) {
      CTypeRef base = specifiers(false);
      do {
        Declarator d = declarator(base, true);
        if (d.name.empty()) fail(cur_, "expected the typedef's name");
        CType& td = types_.arena().make(CKind::Typedef);
        td.name = d.name;
        td.target = d.type;
        types_.define(CKind::Typedef, d.name, &td);
      } while (accept_punct(","));
    } else {
      CTypeRef base = specifiers(false);
      // After `}` a word on a new line is most likely the first probe, not a variable.
      bool new_line = text_.substr(prev_end_, cur_.begin - prev_end_).find('\n') != std::string_view::npos;
      if (!at_punct(";") && just_closed_ && new_line) {
        fail(cur_, "expected ';' after the definition of '" + spell(base) + "', found " + describe());
      }
      if (!at_punct(";")) {
        Declarator d = declarator(base, true);
        fail(d.name.empty() ? first : d.name_tok,
             "'" + (d.name.empty() ? std::string("this") : d.name) +
                 "' declares a variable; a script may declare only types (struct, union, enum, typedef) before its probes");
      }
    }
    // Not consumed through advance(): what follows is script text, not C.
    if (!at_punct(";")) fail(cur_, "expected ';' to end the declaration, found " + describe());
    return cur_.end;
  }

  CTypeRef type_name() {
    CTypeRef base = specifiers(false);
    Declarator d = declarator(base, false);
    if (cur_.kind != T::End) fail(cur_, "unexpected '" + cur_text() + "' after the type");
    return d.type;
  }

  CTypeRef field_declaration() {
    CTypeRef base = specifiers(false);
    Declarator d = declarator(base, true);
    if (cur_.kind != T::End) fail(cur_, "unexpected '" + cur_text() + "' after the field");
    return d.type;
  }

 private:
  struct Declarator {
    std::string name;
    Tok name_tok;
    CTypeRef type = nullptr;
  };
  // A type constructor applied to what is built so far, from the base type outward.
  struct Derive {
    enum Kind : uint8_t { Pointer, Array, Function } kind;
    uint32_t count = 0;
    std::vector<CParam> params;
    bool variadic = false;
  };

  // Every recursive production holds one while it runs, so hostile nesting is an error,
  // not a stack overflow.
  struct Nest {
    DeclParser& p;
    explicit Nest(DeclParser& parser) : p(parser) {
      if (++p.depth_ > kMaxDepth) {
        --p.depth_;
        p.fail(p.cur_, "declaration nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)");
      }
    }
    ~Nest() { --p.depth_; }
  };
  static constexpr int kMaxDepth = 100;

  // --- tokens
  void skip_trivia() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (text_.compare(pos_, 2, "//") == 0) {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (text_.compare(pos_, 2, "/*") == 0) {
        size_t end = text_.find("*/", pos_ + 2);
        if (end == std::string_view::npos) {
          Tok t{T::End, pos_, pos_ + 2, "", 0};
          fail(t, "unterminated comment: add */");
        }
        pos_ = static_cast<uint32_t>(end + 2);
      } else {
        return;
      }
    }
  }

  void advance() {
    prev_end_ = pos_;
    skip_trivia();
    Tok t;
    t.begin = pos_;
    if (pos_ >= text_.size()) {
      t.kind = T::End;
      t.end = pos_;
      cur_ = t;
      return;
    }
    char c = text_[pos_];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
      t.kind = T::Ident;
      t.text = std::string(text_.substr(t.begin, pos_ - t.begin));
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      t.kind = T::Number;
      int base = 10;
      if (c == '0' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X')) {
        base = 16;
        pos_ += 2;
      } else if (c == '0') {
        base = 8;
      }
      uint64_t v = 0;
      bool overflow = false;
      while (pos_ < text_.size() && std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
        char d = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_])));
        int digit = d <= '9' ? d - '0' : d - 'a' + 10;
        if (digit >= base) break;
        if (v > (UINT64_MAX - digit) / base) overflow = true;
        v = v * base + digit;
        ++pos_;
      }
      while (pos_ < text_.size() && (text_[pos_] == 'u' || text_[pos_] == 'U' || text_[pos_] == 'l' || text_[pos_] == 'L')) ++pos_;
      t.value = v;
      t.end = pos_;
      if (overflow) fail(t, "integer constant too large for 64 bits");
      if (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.')) {
        t.end = pos_ + 1;
        fail(t, "invalid integer constant: only decimal, octal and hex integers are accepted here");
      }
    } else {
      t.kind = T::Punct;
      static const char* kTwo[] = {"<<", ">>", "...", "&&", "||"};
      size_t len = 1;
      for (const char* p : kTwo)
        if (text_.compare(pos_, std::char_traits<char>::length(p), p) == 0) len = std::char_traits<char>::length(p);
      pos_ += static_cast<uint32_t>(len);
      t.text = std::string(text_.substr(t.begin, len));
    }
    t.end = pos_;
    cur_ = t;
  }

  std::string cur_text() const { return cur_.kind == T::End ? "end of input" : std::string(text_.substr(cur_.begin, cur_.end - cur_.begin)); }

  [[noreturn]] void fail(const Tok& at, std::string message) {
    uint32_t end = at.end > at.begin ? at.end : at.begin + 1;
    throw Error{DeclError{at.begin, end, std::move(message)}};
  }

  bool at_punct(std::string_view p) const { return cur_.kind == T::Punct && cur_.text == p; }
  bool at_word(std::string_view w) const { return cur_.kind == T::Ident && cur_.text == w; }
  bool accept_punct(std::string_view p) {
    if (!at_punct(p)) return false;
    advance();
    return true;
  }
  bool accept_word(std::string_view w) {
    if (!at_word(w)) return false;
    advance();
    return true;
  }
  void expect_punct(std::string_view p, const char* context) {
    if (!accept_punct(p)) fail(cur_, "expected '" + std::string(p) + "' " + context + ", found " + describe());
  }
  std::string describe() const { return cur_.kind == T::End ? "end of input" : "'" + cur_text() + "'"; }

  // __attribute__((packed)), __attribute__((aligned(8))), __attribute__((__packed__)) ...
  void attributes(bool* packed, uint32_t* align) {
    while (at_word("__attribute__") || at_word("__attribute")) {
      advance();
      expect_punct("(", "after __attribute__");
      expect_punct("(", "after __attribute__(");
      int depth = 2;
      while (depth > 0) {
        if (cur_.kind == T::End) fail(cur_, "unterminated __attribute__((...))");
        if (at_word("packed") || at_word("__packed__")) {
          if (packed) *packed = true;
        } else if (at_word("aligned") || at_word("__aligned__")) {
          advance();
          uint32_t a = 0;
          if (accept_punct("(")) {
            a = static_cast<uint32_t>(constant());
            expect_punct(")", "after the alignment");
          } else {
            a = 16;  // gcc's largest useful alignment on these targets
          }
          if (a == 0 || (a & (a - 1))) fail(cur_, "alignment must be a power of two");
          if (align) *align = std::max(*align, a);
          continue;
        }
        if (at_punct("(")) ++depth;
        if (at_punct(")")) --depth;
        advance();
      }
    }
  }

  void skip_qualifiers() {
    while (true) {
      if (cur_.kind == T::Ident && is_ignored_word(cur_.text)) advance();
      else if (at_word("__attribute__") || at_word("__attribute")) attributes(nullptr, nullptr);
      else return;
    }
  }

  // --- specifiers: the base type of a declaration
  CTypeRef specifiers(bool in_params) {
    skip_qualifiers();
    Tok start = cur_;
    CTypeRef type = nullptr;
    if (at_word("struct") || at_word("union")) {
      type = record();
    } else if (at_word("enum")) {
      type = enumeration();
    } else if (cur_.kind == T::Ident && is_base_word(cur_.text)) {
      type = base_words();
    } else if (cur_.kind == T::Ident) {
      type = types_.find(CKind::Typedef, cur_.text);
      if (!type) {
        std::vector<std::string> names = types_.own_names(CKind::Typedef);
        for (std::string& n : standard_typedef_names()) names.push_back(std::move(n));
        fail(cur_, "unknown type name '" + cur_.text + "': neither the script nor kernel BTF defines it" +
                       did_you_mean(cur_.text, names));
      }
      advance();
    } else {
      fail(cur_, std::string(in_params ? "expected a parameter type" : "expected a type") + ", found " + describe());
    }
    skip_qualifiers();
    (void)start;
    return type;
  }

  CTypeRef base_words() {
    int is_signed = -1, shorts = 0, longs = 0, chars = 0, ints = 0;
    std::string other;  // void, _Bool, float, double
    Tok first = cur_;
    while (cur_.kind == T::Ident && (is_base_word(cur_.text) || is_ignored_word(cur_.text))) {
      const std::string& w = cur_.text;
      if (w == "signed" || w == "__signed__") is_signed = 1;
      else if (w == "unsigned") is_signed = 0;
      else if (w == "short") ++shorts;
      else if (w == "long") ++longs;
      else if (w == "char") ++chars;
      else if (w == "int") ++ints;
      else if (!is_ignored_word(w)) {
        if (!other.empty()) fail(cur_, "two types in one declaration: '" + other + "' and '" + w + "'");
        other = w == "bool" ? "_Bool" : w;
      }
      advance();
    }
    std::string name;
    if (!other.empty()) {
      if (other == "double" && longs == 1) name = "long double";
      else if (shorts || chars || ints || longs || is_signed >= 0) fail(first, "invalid combination of type words with '" + other + "'");
      else name = other;
    } else if (chars) {
      name = is_signed < 0 ? "char" : is_signed ? "signed char" : "unsigned char";
    } else {
      std::string core = shorts ? "short" : longs >= 2 ? "long long" : longs == 1 ? "long" : "int";
      name = is_signed == 0 ? "unsigned " + core : core;
    }
    if (longs > 2 || (shorts && longs) || (chars && (shorts || longs)))
      fail(first, "invalid combination of type words");
    CTypeRef t = types_.base_type(name);
    if (!t) fail(first, "unknown type '" + name + "'");
    return t;
  }

  CTypeRef record() {
    Nest nest(*this);
    bool is_union = at_word("union");
    Tok kw = cur_;
    advance();
    RecordAttrs attrs;
    attributes(&attrs.packed, &attrs.align);
    std::string tag;
    Tok tag_tok = cur_;
    if (cur_.kind == T::Ident) {
      tag = cur_.text;
      advance();
    }
    CKind kind = is_union ? CKind::Union : CKind::Struct;
    if (!at_punct("{")) {
      if (tag.empty()) fail(cur_, std::string("expected a tag or '{' after '") + (is_union ? "union" : "struct") + "'");
      if (CTypeRef t = types_.find(kind, tag)) return t;
      // A pointer to a record defined later (or never): a forward declaration, completed in
      // place if the script defines it.
      CType& f = types_.arena().make(CKind::Forward);
      f.name = tag;
      f.tag_kind = kind;
      types_.define(kind, tag, &f);
      return &f;
    }
    Tok open = cur_;
    advance();
    CType* rec = nullptr;
    if (!tag.empty()) {
      CTypeRef own = types_.find_own(kind, tag);
      if (own && own->kind != CKind::Forward)
        fail(tag_tok, std::string("redefinition of '") + (is_union ? "union " : "struct ") + tag + "'");
      // The arena owns every type it made; a forward declaration of this script's becomes the
      // definition, so pointers taken to it earlier see the members.
      if (own) rec = const_cast<CType*>(own);
    }
    if (!rec) rec = &types_.arena().make(kind);
    rec->kind = kind;
    rec->name = tag;
    if (!tag.empty()) types_.define(kind, tag, rec);
    std::vector<MemberDecl> members;
    defining_.push_back(rec);
    while (!accept_punct("}")) {
      if (cur_.kind == T::End) fail(open, "unterminated " + std::string(is_union ? "union" : "struct") + ": add '}'");
      member_declaration(members);
    }
    defining_.pop_back();
    just_closed_ = !at_word("__attribute__");
    attributes(&attrs.packed, &attrs.align);
    for (size_t i = 0; i < members.size(); ++i)
      for (size_t j = 0; j < i; ++j)
        if (!members[i].name.empty() && members[i].name == members[j].name)
          fail(kw, "duplicate member '" + members[i].name + "' in " + (tag.empty() ? "an anonymous record" : tag));
    lay_out_record(*rec, members, attrs, types_.model(), types_.aligns());
    return rec;
  }

  void member_declaration(std::vector<MemberDecl>& members) {
    CTypeRef base = specifiers(false);
    if (accept_punct(";")) {
      // An anonymous struct or union member: its members are reached as the record's own.
      CTypeRef s = strip_typedefs(base);
      if (s && (s->kind == CKind::Struct || s->kind == CKind::Union) && s->name.empty())
        members.push_back(MemberDecl{"", base, std::nullopt, 0});
      return;
    }
    do {
      MemberDecl m;
      Declarator d;
      if (at_punct(":")) {
        d.type = base;  // an unnamed bit-field
      } else {
        d = declarator(base, true);
      }
      m.name = d.name;
      m.type = d.type;
      if (accept_punct(":")) {
        Tok w = cur_;
        int64_t width = constant();
        CTypeRef s = strip_typedefs(m.type);
        if (!s || (s->kind != CKind::Int && s->kind != CKind::Enum))
          fail(w, "bit-field '" + m.name + "' needs an integer type");
        if (width < 0 || static_cast<uint64_t>(width) > uint64_t{s->size} * 8)
          fail(w, "bit-field width " + std::to_string(width) + " is outside 0.." + std::to_string(s->size * 8) +
                      " for its type");
        if (width == 0 && !m.name.empty()) fail(w, "named bit-field '" + m.name + "' has zero width");
        m.bit_width = static_cast<uint32_t>(width);
      } else {
        if (m.name.empty()) fail(cur_, "expected a member name, found " + describe());
        check_complete(m.type, d.name_tok, m.name);
      }
      uint32_t align = 0;
      attributes(nullptr, &align);
      m.align_attr = align;
      members.push_back(std::move(m));
    } while (accept_punct(","));
    expect_punct(";", "after the member");
  }

  // A member must have a size: `struct foo x;` needs foo's definition, pointers do not.
  void check_complete(CTypeRef type, const Tok& at, const std::string& name) {
    CTypeRef t = strip_typedefs(type);
    while (t && t->kind == CKind::Array) {
      if (t->count == 0) return;  // a flexible array member
      t = strip_typedefs(t->target);
    }
    if (!t) return;
    for (CTypeRef open : defining_)
      if (t == open)
        fail(at, "member '" + name + "' has incomplete type '" + spell(t) + "': a struct cannot contain itself; make the member a pointer");
    if (t->kind == CKind::Forward)
      fail(at, "member '" + name + "' has incomplete type '" + spell(t) + "': define " + spell(t) +
                   " before this struct, or make the member a pointer");
    if (t->kind == CKind::Void) fail(at, "member '" + name + "' has type void");
    if (t->kind == CKind::Function) fail(at, "member '" + name + "' is a function; make it a function pointer");
  }

  CTypeRef enumeration() {
    Nest nest(*this);
    advance();
    std::string tag;
    if (cur_.kind == T::Ident) {
      tag = cur_.text;
      advance();
    }
    if (!at_punct("{")) {
      if (tag.empty()) fail(cur_, "expected a tag or '{' after 'enum'");
      if (CTypeRef t = types_.find(CKind::Enum, tag)) return t;
      fail(cur_, "enum " + tag + " is not defined; define it before it is used");
    }
    advance();
    CType& e = types_.arena().make(CKind::Enum);
    e.name = tag;
    int64_t next = 0;
    while (!accept_punct("}")) {
      if (cur_.kind != T::Ident) fail(cur_, "expected an enumerator name, found " + describe());
      std::string name = cur_.text;
      advance();
      if (accept_punct("=")) next = constant();
      e.enumerators.push_back(CEnumerator{name, next});
      types_.define_constant(name, next);
      ++next;
      if (!accept_punct(",")) {
        expect_punct("}", "to close the enum");
        break;
      }
    }
    // gcc's choice of underlying type: int if every value fits, else unsigned int, else the
    // 8-byte long long (its sign as the values need).
    bool negative = false;
    bool fits_int = true, fits_uint = true;
    for (const CEnumerator& v : e.enumerators) {
      if (v.value < 0) negative = true;
      if (v.value < INT32_MIN || v.value > INT32_MAX) fits_int = false;
      if (v.value < 0 || v.value > static_cast<int64_t>(UINT32_MAX)) fits_uint = false;
    }
    const DataModel& m = types_.model();
    if (fits_int || (!negative && fits_uint)) {
      e.size = m.int_type.size;
      e.is_signed = negative;  // gcc makes an enum without negative values unsigned int
    } else {
      e.size = m.long_long.size;
      e.is_signed = negative;
    }
    just_closed_ = true;
    attributes(nullptr, nullptr);
    if (!tag.empty()) types_.define(CKind::Enum, tag, &e);
    return &e;
  }

  // --- declarators
  Declarator declarator(CTypeRef base, bool named) {
    std::vector<Derive> ops;
    Declarator d;
    declarator_ops(ops, d, named);
    CTypeRef t = base;
    for (const Derive& op : ops) {
      switch (op.kind) {
        case Derive::Pointer: t = types_.pointer_to(t); break;
        case Derive::Array: t = types_.arena().array_of(t, op.count); break;
        case Derive::Function: {
          CType& f = types_.arena().make(CKind::Function);
          f.target = t;
          f.params = op.params;
          f.is_variadic = op.variadic;
          t = &f;
          break;
        }
      }
    }
    d.type = t;
    return d;
  }

  // Appends the constructors of one declarator, base-most first: the pointer prefix binds
  // looser than the array and function suffixes, and a parenthesised inner declarator
  // (`(*fn)(int)`) applies last.
  void declarator_ops(std::vector<Derive>& ops, Declarator& d, bool named) {
    Nest nest(*this);
    uint32_t pointers = 0;
    while (true) {
      if (accept_punct("*")) ++pointers;
      else if (cur_.kind == T::Ident && is_ignored_word(cur_.text)) advance();
      else if (at_word("__attribute__")) attributes(nullptr, nullptr);
      else break;
    }
    std::vector<Derive> inner;
    bool has_inner = false;
    if (cur_.kind == T::Ident) {
      d.name = cur_.text;
      d.name_tok = cur_;
      advance();
    } else if (at_punct("(") && peek_inner_declarator()) {
      advance();
      declarator_ops(inner, d, named);
      has_inner = true;
      expect_punct(")", "to close the declarator");
    }
    std::vector<Derive> suffixes;
    while (true) {
      if (accept_punct("[")) {
        Derive a{Derive::Array, 0, {}, false};
        if (!at_punct("]")) {
          Tok at = cur_;
          int64_t n = constant();
          if (n < 0) fail(at, "array size is negative");
          if (n > (1 << 24)) fail(at, "array size " + std::to_string(n) + " is too large");
          a.count = static_cast<uint32_t>(n);
        }
        expect_punct("]", "to close the array size");
        suffixes.push_back(a);
      } else if (at_punct("(")) {
        advance();
        suffixes.push_back(parameters());
      } else {
        break;
      }
    }
    (void)has_inner;
    (void)named;
    for (uint32_t i = 0; i < pointers; ++i) ops.push_back(Derive{Derive::Pointer, 0, {}, false});
    for (auto it = suffixes.rbegin(); it != suffixes.rend(); ++it) ops.push_back(*it);
    for (Derive& op : inner) ops.push_back(std::move(op));
  }

  // After '(' in a declarator: an inner declarator (`(*fn)`, `(name)`) rather than a
  // function's parameter list (`(int)`, `(void)`, `()`).
  bool peek_inner_declarator() {
    uint32_t save_pos = pos_;
    Tok save = cur_;
    advance();
    bool inner = at_punct("*") || at_punct("(") ||
                 (cur_.kind == T::Ident && !is_base_word(cur_.text) && !is_ignored_word(cur_.text) &&
                  cur_.text != "struct" && cur_.text != "union" && cur_.text != "enum" &&
                  !types_.find(CKind::Typedef, cur_.text));
    pos_ = save_pos;
    cur_ = save;
    return inner;
  }

  Derive parameters() {
    Derive f{Derive::Function, 0, {}, false};
    if (accept_punct(")")) return f;
    if (at_word("void")) {
      uint32_t save_pos = pos_;
      Tok save = cur_;
      advance();
      if (accept_punct(")")) return f;
      pos_ = save_pos;
      cur_ = save;
    }
    do {
      if (accept_punct("...")) {
        f.variadic = true;
        break;
      }
      CTypeRef base = specifiers(true);
      Declarator d = declarator(base, false);
      f.params.push_back(CParam{d.name, d.type});
    } while (accept_punct(","));
    expect_punct(")", "to close the parameter list");
    return f;
  }

  // --- integer constant expressions: array sizes, bit widths, enumerator values
  int64_t constant() { return binary(0); }

  int precedence(const std::string& op) const {
    static const struct { const char* op; int prec; } kOps[] = {
        {"|", 1}, {"^", 2}, {"&", 3}, {"<<", 4}, {">>", 4}, {"+", 5}, {"-", 5}, {"*", 6}, {"/", 6}, {"%", 6},
    };
    for (const auto& o : kOps)
      if (op == o.op) return o.prec;
    return -1;
  }

  int64_t binary(int min_prec) {
    Nest nest(*this);
    int64_t left = unary();
    while (cur_.kind == T::Punct) {
      int prec = precedence(cur_.text);
      if (prec < 0 || prec < min_prec) break;
      Tok op = cur_;
      advance();
      int64_t right = binary(prec + 1);
      uint64_t l = static_cast<uint64_t>(left), r = static_cast<uint64_t>(right);
      if (op.text == "+") left = static_cast<int64_t>(l + r);
      else if (op.text == "-") left = static_cast<int64_t>(l - r);
      else if (op.text == "*") left = static_cast<int64_t>(l * r);
      else if (op.text == "|") left = left | right;
      else if (op.text == "^") left = left ^ right;
      else if (op.text == "&") left = left & right;
      else if (op.text == "<<") left = right >= 0 && right < 64 ? static_cast<int64_t>(l << r) : 0;
      else if (op.text == ">>") left = right >= 0 && right < 64 ? left >> right : 0;
      else {
        if (right == 0) fail(op, "division by zero in a constant");
        if (left == INT64_MIN && right == -1) fail(op, "constant overflows 64 bits");
        left = op.text == "/" ? left / right : left % right;
      }
    }
    return left;
  }

  int64_t unary() {
    Nest nest(*this);
    Tok t = cur_;
    if (accept_punct("-")) return static_cast<int64_t>(0 - static_cast<uint64_t>(unary()));
    if (accept_punct("+")) return unary();
    if (accept_punct("~")) return ~unary();
    if (accept_punct("(")) {
      int64_t v = constant();
      expect_punct(")", "to close the parenthesis");
      return v;
    }
    if (t.kind == T::Number) {
      advance();
      return static_cast<int64_t>(t.value);
    }
    if (at_word("sizeof")) {
      advance();
      expect_punct("(", "after sizeof");
      CTypeRef type = specifiers(false);
      type = declarator(type, false).type;
      expect_punct(")", "to close sizeof");
      return size_of(type);
    }
    if (t.kind == T::Ident) {
      if (const int64_t* v = types_.constant(t.text)) {
        advance();
        return *v;
      }
      fail(t, "'" + t.text + "' is not a constant: sizes and enum values must be integers or enumerators");
    }
    fail(t, "expected an integer constant, found " + describe());
  }

  std::string_view text_;
  uint32_t pos_;
  ScriptTypes& types_;
  Tok cur_;
  int depth_ = 0;
  std::vector<CTypeRef> defining_;  // records whose '}' has not been reached yet
  bool just_closed_ = false;         // the last specifier ended with a record's '}'
  uint32_t prev_end_ = 0;            // where the token before cur_ ended

};

bool is_word_at(std::string_view text, uint32_t pos, std::string_view word) {
  if (text.compare(pos, word.size(), word) != 0) return false;
  size_t end = pos + word.size();
  return end >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
}

}  // namespace

bool starts_declaration(std::string_view text, uint32_t pos) {
  while (pos < text.size()) {
    if (std::isspace(static_cast<unsigned char>(text[pos]))) {
      ++pos;
    } else if (text.compare(pos, 2, "//") == 0) {
      while (pos < text.size() && text[pos] != '\n') ++pos;
    } else if (text.compare(pos, 2, "/*") == 0) {
      size_t end = text.find("*/", pos + 2);
      if (end == std::string_view::npos) return false;
      pos = static_cast<uint32_t>(end + 2);
    } else {
      break;
    }
  }
  for (std::string_view w : {"struct", "union", "enum", "typedef"})
    if (is_word_at(text, pos, w)) return true;
  return false;
}

std::optional<DeclError> parse_declaration(std::string_view text, uint32_t& pos, ScriptTypes& types) {
  try {
    DeclParser p(text, pos, types);
    pos = p.declaration();
    return std::nullopt;
  } catch (const Error& e) {
    return e.e;
  }
}

TypeNameResult parse_type_name(std::string_view text, ScriptTypes& types) {
  try {
    DeclParser p(text, 0, types);
    return {p.type_name(), std::nullopt};
  } catch (const Error& e) {
    return {nullptr, e.e};
  }
}

TypeNameResult parse_field_declaration(std::string_view text, ScriptTypes& types) {
  try {
    DeclParser p(text, 0, types);
    return {p.field_declaration(), std::nullopt};
  } catch (const Error& e) {
    return {nullptr, e.e};
  }
}

}  // namespace rawprobe::ctypes
