#include "engine/lang/preprocess.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <set>

#include "engine/lang/diagnostics.h"
#include "engine/lang/imports.h"
#include "engine/lang/pp_token.h"
#include "engine/lang/preprocess_expr.h"
#include "engine/lang/preprocess_include.h"
#include "engine/lang/preprocess_macros.h"

namespace rawprobe::lang {
namespace {

constexpr const char* kBtfPath = "/sys/kernel/btf/vmlinux";
constexpr int kMaxIncludeDepth = 200;  // gcc's limit too

// The rest of a file as tokens, for the arguments of a function-like macro used in the text.
class FileFeed : public TokenFeed {
 public:
  FileFeed(std::string_view text, uint32_t pos) : lex_(text, pos, uint32_t(text.size())), consumed_(pos) {}
  bool next(PpToken& out) override {
    if (!lex_.next(out, false)) return false;
    consumed_ = lex_.pos();
    return true;
  }
  bool next_is_lparen() override {
    uint32_t save = lex_.pos();
    PpToken t;
    bool yes = lex_.next(t, false) && t.is(PpKind::Punct, "(");
    lex_.set_pos(save);
    return yes;
  }
  uint32_t consumed() const { return consumed_; }

 private:
  PpLexer lex_;
  uint32_t consumed_;
};

struct Conditional {
  uint32_t offset;      // of the #if, for "unterminated" errors
  bool parent_active;
  bool active;          // this branch's lines are read
  bool taken;           // some branch of this #if was (so #else and #elif are not)
  bool in_else = false;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool punct_char(char c) { return c && std::string_view("+-*/%&|^<>=!.:#").find(c) != std::string_view::npos; }

class Preprocessor {
 public:
  explicit Preprocessor(const PreprocessOptions& options) : options_(options), map_(std::make_shared<OriginMap>()) {
    const arch::Table& table = options.arch ? *options.arch : arch::host();
    dirs_.user = options.include_dirs;
    dirs_.system = options.system_dirs.empty() ? default_system_include_dirs(table) : options.system_dirs;
    predefined_ = predefined_macros(table, options.have_btf);
  }

  PreprocessResult run(const std::string& name, const std::string& text) {
    uint32_t builtin = add_file("<built-in>", predefined_);
    process(builtin, false, -1);
    uint32_t main = main_ = add_file(name, text);
    // The script itself counts as imported: a file that imports it back adds nothing.
    if (char* real = realpath(name.c_str(), nullptr)) {
      imported_.insert(real);
      free(real);
    }
    for (const std::string& forced : options_.forced_includes) {
      std::optional<FoundHeader> found = find_header(dirs_, forced, false, ".");
      if (!found) {
        Diagnostic missing;
        missing.message = "--include " + forced +
                          ": no such file (searched the current directory, then -I and the system include directories)";
        diagnostics_.push_back(std::move(missing));
        ++error_count_;
        continue;
      }
      include(main, 0, *found, true);
    }
    process(main, true, -1);
    PreprocessResult r;
    r.ok = error_count_ == 0;
    r.diagnostics = std::move(diagnostics_);
    r.notes = std::move(notes_);
    r.source = SourceFile(name, std::move(out_), map_);
    return r;
  }

 private:
  uint32_t add_file(std::string name, std::string text) {
    map_->files.push_back({std::move(name), std::move(text)});
    return uint32_t(map_->files.size() - 1);
  }

  void error(uint32_t file, uint32_t offset, uint32_t length, const std::string& message) {
    if (size_t(error_count_++) >= Diagnostics::kMaxErrors) return;
    const OriginFile& f = map_->files[file];
    Diagnostic d = diagnostic_at(SourceFile(f.name, f.text), {offset, offset + std::max<uint32_t>(length, 1)}, message);
    for (size_t i = stack_.size(); i-- > 0;) {
      const OriginFile& from = map_->files[stack_[i].first];
      LineCol at = line_col(from.text, stack_[i].second);
      d.notes.push_back(std::string(by_import_[i] ? "imported" : "included") + " from " + from.name + ":" +
                        std::to_string(at.line));
    }
    diagnostics_.push_back(std::move(d));
  }

  // Output: bytes copied from a file map one to one; an expansion maps to the macro's use.
  void emit_verbatim(uint32_t file, std::string_view text, uint32_t begin, uint32_t end) {
    if (end <= begin) return;
    if (map_->runs.empty() || !map_->runs.back().verbatim || map_->runs.back().file != file ||
        map_->runs.back().origin_begin + (out_.size() - map_->runs.back().out_begin) != begin)
      map_->runs.push_back({uint32_t(out_.size()), file, begin, 0, true});
    out_.append(text.substr(begin, end - begin));
  }

  void emit_expansion(uint32_t file, uint32_t begin, uint32_t end, std::string text, char next) {
    if (!out_.empty() && ((pp_ident_char(out_.back()) && !text.empty() && pp_ident_char(text.front())) ||
                          (punct_char(out_.back()) && !text.empty() && punct_char(text.front()))))
      text.insert(text.begin(), ' ');
    if (!text.empty() && ((pp_ident_char(text.back()) && pp_ident_char(next)) || (punct_char(text.back()) && punct_char(next))))
      text += ' ';
    map_->runs.push_back({uint32_t(out_.size()), file, begin, end, false});
    out_ += text;
  }

  bool active() const { return conds_.empty() || conds_.back().active; }

  void process(uint32_t file, bool keep_text, int found_dir) {
    std::string text = map_->files[file].text;  // a copy: includes add files as we go
    std::string_view t = text;
    std::vector<Conditional> saved;
    saved.swap(conds_);
    TopLevel saved_top = top_;
    top_ = {};
    uint32_t pos = 0, n = uint32_t(t.size());
    if ((is_main(file) || imported_scripts_.count(file)) && t.starts_with("#!")) {
      pos = uint32_t(std::min(t.find('\n'), t.size()));  // the "#!" line is the kernel's, not ours
    }
    while (pos < n) {
      uint32_t p = pos;
      while (p < n && is_space(t[p])) ++p;
      if (p < n && t[p] == '#') {
        pos = directive(file, t, p, keep_text, found_dir);
      } else if (active() && keep_text) {
        pos = text_line(file, t, pos);
      } else {
        pos = skip_line(t, pos);
      }
      if (pos < n && t[pos] == '\n') {
        if (keep_text) emit_verbatim(file, t, pos, pos + 1);
        ++pos;
      }
    }
    for (const Conditional& c : conds_) error(file, c.offset, 1, "#if without #endif (the file ends inside it)");
    conds_.swap(saved);
    top_ = saved_top;
  }

  bool is_main(uint32_t file) const { return file == main_; }

  // A line of an inactive region or of a header whose text is dropped: only comments matter,
  // since a '#' inside a /* */ comment that spans lines is no directive.
  uint32_t skip_line(std::string_view t, uint32_t pos) {
    uint32_t n = uint32_t(t.size());
    while (pos < n && t[pos] != '\n') {
      if (t[pos] == '/' && pos + 1 < n && t[pos + 1] == '/') {
        while (pos < n && t[pos] != '\n') ++pos;
      } else if (t[pos] == '/' && pos + 1 < n && t[pos + 1] == '*') {
        size_t close = t.find("*/", pos + 2);
        pos = close == std::string_view::npos ? n : uint32_t(close + 2);
      } else if (t[pos] == '"' || t[pos] == '\'') {
        char q = t[pos++];
        while (pos < n && t[pos] != '\n' && t[pos] != q) pos += (t[pos] == '\\' && pos + 1 < n && t[pos + 1] != '\n') ? 2 : 1;
        if (pos < n && t[pos] == q) ++pos;
      } else {
        ++pos;
      }
    }
    return pos;
  }

  // A line of the script's text: copied as written except the macros used in it.
  uint32_t text_line(uint32_t file, std::string_view t, uint32_t pos) {
    uint32_t n = uint32_t(t.size()), chunk = pos;
    while (pos < n && t[pos] != '\n') {
      char c = t[pos];
      if (c == '/' && pos + 1 < n && t[pos + 1] == '/') {
        while (pos < n && t[pos] != '\n') ++pos;
      } else if (c == '/' && pos + 1 < n && t[pos + 1] == '*') {
        size_t close = t.find("*/", pos + 2);  // the lexer reports one left open
        pos = close == std::string_view::npos ? n : uint32_t(close + 2);
      } else if (c == '"' || c == '\'') {
        ++pos;
        while (pos < n && t[pos] != '\n' && t[pos] != c) pos += (t[pos] == '\\' && pos + 1 < n && t[pos + 1] != '\n') ? 2 : 1;
        if (pos < n && t[pos] == c) ++pos;
      } else if (c == '@') {
        ++pos;  // a map name: bpftrace 0.17 never expands it
        while (pos < n && pp_ident_char(t[pos])) ++pos;
      } else if (c == '{' || c == '}') {
        track_braces(std::string_view(&t[pos], 1));
        ++pos;
      } else if (c == '/' && depth_ == 0 && (predicate_ || pos == 0 || std::isspace(static_cast<unsigned char>(t[pos - 1])))) {
        predicate_ = !predicate_;  // `/pid == 1/` after the probes: an expression again
        ++pos;
      } else if (depth_ == 0 && !predicate_ && starts_import(t, pos)) {
        emit_verbatim(file, t, chunk, pos);
        pos = import_statement(file, t, pos);
        chunk = pos;
      } else if (depth_ == 0 && !predicate_ && !std::isspace(static_cast<unsigned char>(c))) {
        // A probe spec: bpftrace 0.17 never expands names there, and a path such as
        // /usr/lib/x86_64-linux-gnu must keep its `linux`.
        uint32_t word = pos;
        while (pos < n && !std::isspace(static_cast<unsigned char>(t[pos])) && t[pos] != '{' && t[pos] != ',' &&
               !(t[pos] == '/' && pos + 1 < n && (t[pos + 1] == '/' || t[pos + 1] == '*')))
          ++pos;
        top_level_word(file, t.substr(word, pos - word), word);
        if (pos < n && t[pos] == ',') ++pos;
      } else if (c >= '0' && c <= '9') {
        PpLexer lex(t, pos, n);
        PpToken num;
        lex.next(num, true);
        pos = lex.pos();
      } else if (pp_ident_start(c)) {
        uint32_t begin = pos;
        while (pos < n && pp_ident_char(t[pos])) ++pos;
        std::string name(t.substr(begin, pos - begin));
        const Macro* m = macros_.find(name);
        if (!m) continue;
        FileFeed feed(t, pos);
        if (m->function_like && !feed.next_is_lparen()) continue;
        emit_verbatim(file, t, chunk, begin);
        PpToken use{PpKind::Ident, name, false, begin, {}};
        std::vector<PpToken> result;
        PpProblem problem;
        Expander expander(macros_);
        if (!expander.expand({use}, &feed, result, problem)) {
          error(file, begin, pos - begin, problem.message);
          chunk = begin;  // the use stays as written
          continue;
        }
        pos = std::max(pos, feed.consumed());
        std::string spelled = spell_tokens(result);
        for (const PpToken& r : result)
          if (r.kind == PpKind::Punct) track_braces(r.text);
        emit_expansion(file, begin, pos, std::move(spelled), pos < n ? t[pos] : 0);
        chunk = pos;
      } else {
        ++pos;
      }
    }
    emit_verbatim(file, t, chunk, pos);
    return pos;
  }

  // Braces of the script's text: outside every block (depth 0) are probe specs and predicates.
  void track_braces(std::string_view punct) {
    if (punct == "{") {
      ++depth_;
      predicate_ = false;
    } else if (punct == "}" && depth_ > 0) {
      if (--depth_ == 0) top_.head.clear();
    }
  }

  // The first word of each item outside every block tells what the item is: bpftrace's grammar
  // puts C definitions, then config, then imports, before any probe, macro or map declaration;
  // and an imported script may not have a config block, which could not be merged.
  void top_level_word(uint32_t file, std::string_view word, uint32_t at) {
    if (top_.head.empty() && !word.empty() && word[0] != ';') {
      size_t len = 0;
      while (len < word.size() && pp_ident_char(word[len])) ++len;
      top_.head = std::string(word.substr(0, len ? len : word.size()));
      if (top_.head == "config" && imported_scripts_.count(file))
        error(file, at, uint32_t(top_.head.size()),
              "an imported script cannot have a config block (bpftrace refuses it too): set the config "
              "variables in the script that imports it");
      static const std::set<std::string> preamble = {"config", "struct", "union", "enum", "typedef"};
      if (!preamble.count(top_.head)) top_.root_statement_seen = true;
    }
    if (word.find(';') != std::string_view::npos) top_.head.clear();
  }

  // `import "NAME";` outside every block: the files it names are read in its place. Returns the
  // offset after the statement.
  uint32_t import_statement(uint32_t file, std::string_view t, uint32_t at) {
    Result<ImportStatement> stmt = read_import_statement(t, at);
    if (!stmt) {
      error(file, stmt.error().at->begin, stmt.error().at->end - stmt.error().at->begin, stmt.error().what);
      size_t eol = t.find('\n', at);
      return uint32_t(eol == std::string_view::npos ? t.size() : eol);
    }
    if (top_.root_statement_seen) {
      error(file, at, stmt->end - at,
            "import must come before the first probe, macro or map declaration (after any config "
            "block), as in bpftrace: move it to the top of the script");
      return stmt->end;
    }
    std::vector<std::string> dirs = {directory_of(map_->files[main_].name)};
    dirs.insert(dirs.end(), options_.include_dirs.begin(), options_.include_dirs.end());
    Result<std::vector<ImportedFile>> files = resolve_import(stmt->name, dirs);
    if (!files) {
      const Error& e = files.error();
      error(file, stmt->name_offset, stmt->name_length, e.what + (e.hint.empty() ? "" : ": " + e.hint));
      return stmt->end;
    }
    for (ImportedFile& f : *files) {
      char* real = realpath(f.path.c_str(), nullptr);
      bool first = imported_.insert(real ? real : f.path).second;
      free(real);
      if (!first) continue;  // imported already (or the script itself): once is enough, as in bpftrace
      notes_.push_back("import \"" + stmt->name + "\": read " + f.path);
      include(file, at, FoundHeader{f.path, std::move(f.text), -1, false}, true, f.kind == ImportKind::Script, true);
    }
    return stmt->end;
  }

  // `hash` is the '#'; returns the offset of the newline that ends the directive.
  uint32_t directive(uint32_t file, std::string_view t, uint32_t hash, bool keep_text, int found_dir) {
    PpLexer lex(t, hash + 1, uint32_t(t.size()));
    std::vector<PpToken> line;
    PpToken tok;
    while (lex.next(tok, true)) line.push_back(std::move(tok));
    uint32_t end = lex.pos();
    if (lex.open_comment() != UINT32_MAX) error(file, lex.open_comment(), 2, "unterminated comment: '/*' has no closing '*/'");
    if (line.empty()) return end;  // the null directive
    const PpToken& name = line[0];
    std::vector<PpToken> rest(line.begin() + 1, line.end());
    const std::string& d = name.text;
    uint32_t at = name.offset;
    if (d == "if" || d == "ifdef" || d == "ifndef") {
      bool parent = active();
      bool value = false;
      if (parent) value = d == "if" ? if_value(file, rest, at) : defined_test(file, d, rest, at);
      conds_.push_back({hash, parent, parent && value, !parent || value});
    } else if (d == "elif") {
      if (conds_.empty()) error(file, at, 4, "#elif without #if");
      else if (conds_.back().in_else) error(file, at, 4, "#elif after #else");
      else {
        Conditional& c = conds_.back();
        bool value = c.parent_active && !c.taken && if_value(file, rest, at);
        c.active = value;
        c.taken = c.taken || value;
      }
    } else if (d == "else") {
      if (conds_.empty()) error(file, at, 4, "#else without #if");
      else if (conds_.back().in_else) error(file, at, 4, "#else after #else");
      else {
        Conditional& c = conds_.back();
        c.in_else = true;
        c.active = c.parent_active && !c.taken;
        c.taken = true;
      }
    } else if (d == "endif") {
      if (conds_.empty()) error(file, at, 5, "#endif without #if");
      else conds_.pop_back();
    } else if (!active()) {
      // Other directives in a skipped region are not looked at, as in C.
    } else if (d == "define") {
      Macro m;
      PpProblem problem;
      if (parse_define(rest, m, problem)) macros_.define(std::move(m));
      else error(file, rest.empty() ? at : problem.offset, 1, problem.message);
    } else if (d == "undef") {
      if (rest.empty() || rest[0].kind != PpKind::Ident) error(file, at, 5, "#undef needs a macro name");
      else macros_.undefine(rest[0].text);
    } else if (d == "include" || d == "include_next") {
      include_directive(file, t, at, rest, keep_text, d == "include_next" ? found_dir : -2);
    } else if (d == "error") {
      std::string says = rest.empty() ? "" : " " + std::string(t.substr(rest[0].offset, end - rest[0].offset));
      error(file, at, uint32_t(d.size()), "#error" + says);
    } else if (d == "pragma") {
      if (!rest.empty() && rest[0].text == "once") once_.insert(map_->files[file].name);
    } else if (d == "warning" || d == "line" || d == "ident" || d == "sccs" || name.kind == PpKind::Number) {
      // Nothing a script needs: a warning for the compiler, line markers, version strings.
    } else {
      error(file, at, uint32_t(d.size()), "unknown preprocessor directive '#" + d + "'");
    }
    return end;
  }

  bool defined_test(uint32_t file, const std::string& d, const std::vector<PpToken>& rest, uint32_t at) {
    if (rest.empty() || rest[0].kind != PpKind::Ident) {
      error(file, at, uint32_t(d.size()), "#" + d + " needs a macro name");
      return false;
    }
    bool defined = macros_.find(rest[0].text) != nullptr;
    return d == "ifdef" ? defined : !defined;
  }

  bool if_value(uint32_t file, const std::vector<PpToken>& rest, uint32_t at) {
    IfOperators ops;
    ops.has_include = [&](const std::string& header, bool angled, bool next) {
      return find_header(dirs_, header, angled, directory_of(map_->files[file].name), next ? current_dir_ : -2).has_value() ||
             (angled && builtin_header(header));
    };
    Expander expander(macros_, &ops);
    std::vector<PpToken> expanded;
    PpProblem problem;
    IfValue v;
    if (!expander.expand(rest, nullptr, expanded, problem) || !evaluate_if(expanded, at, v, problem)) {
      error(file, problem.offset, 1, problem.message);
      return false;
    }
    return v.bits != 0;
  }

  void include_directive(uint32_t file, std::string_view t, uint32_t at, const std::vector<PpToken>& rest,
                         bool keep_text, int after_dir) {
    std::string header;
    bool angled = false;
    uint32_t where = rest.empty() ? at : rest[0].offset, length = 1;
    std::vector<PpToken> words = rest;
    if (!words.empty() && words[0].kind != PpKind::String && !words[0].is(PpKind::Punct, "<")) {
      // #include MACRO: the macro gives the header.
      std::vector<PpToken> expanded;
      PpProblem problem;
      Expander expander(macros_);
      if (expander.expand(words, nullptr, expanded, problem)) words = expanded;
    }
    if (!words.empty() && words[0].kind == PpKind::String && words[0].text.size() >= 2 && words[0].text[0] == '"') {
      header = words[0].text.substr(1, words[0].text.size() - 2);
      length = uint32_t(words[0].text.size());
    } else if (!words.empty() && words[0].is(PpKind::Punct, "<")) {
      angled = true;
      if (words[0].offset == where && rest[0].is(PpKind::Punct, "<")) {
        size_t close = t.find('>', where);
        size_t eol = t.find('\n', where);
        if (close != std::string_view::npos && close < eol) {
          header = std::string(t.substr(where + 1, close - where - 1));
          length = uint32_t(close - where + 1);
        }
      } else {
        for (size_t i = 1; i < words.size() && !words[i].is(PpKind::Punct, ">"); ++i) header += words[i].text;
      }
    }
    if (header.empty()) {
      error(file, where, length, "#include needs a file: #include <header.h> or #include \"file.h\"");
      return;
    }
    std::string shown = angled ? "<" + header + ">" : "\"" + header + "\"";
    std::optional<FoundHeader> found = find_header(dirs_, header, angled, directory_of(map_->files[file].name), after_dir);
    if (!found) {
      if (const char* builtin = angled ? builtin_header(header) : nullptr) {
        notes_.push_back(shown + ": not found in the include path; using rawprobe's built-in copy of its constants");
        include(file, at, FoundHeader{"<built-in " + header + ">", builtin, -1, true}, false);
        return;
      }
      if (angled && !keep_text && file != main_) {
        // A header a system header takes from the compiler (<stddef.h>, <stdarg.h>): of a system
        // header only its macros are read, and the script needs none of these.
        if (skipped_.insert(header).second)
          notes_.push_back(shown + ": not found, included by system headers (first " + map_->files[file].name +
                           "); skipped, as only their macros are read");
        return;
      }
      if (angled && options_.have_btf) {
        notes_.push_back(shown + ": not found in the include path; the kernel types it declares come from BTF (" +
                         std::string(kBtfPath) + ")");
        kernel_macros(file, at, header, angled);
        return;
      }
      std::string searched;
      for (const std::string& d : dirs_.user) searched += " " + d;
      for (const std::string& d : dirs_.system) searched += " " + d;
      if (angled)
        error(file, where, length,
              "header " + shown + " not found (searched:" + searched + "); this kernel has no BTF (" + std::string(kBtfPath) +
                  " is missing), which is where rawprobe takes kernel types from: run on a kernel built with "
                  "CONFIG_DEBUG_INFO_BTF=y, or declare the types the script needs in the script; for other headers, "
                  "install them or give their directory with -I DIR");
      else
        error(file, where, length,
              "file " + shown + " not found (searched beside " + map_->files[file].name + "," + searched +
                  "); give its directory with -I DIR");
      return;
    }
    if (once_.count(found->path)) return;
    if (stack_.size() >= size_t(kMaxIncludeDepth)) {
      error(file, where, length, "#include nested too deeply (more than " + std::to_string(kMaxIncludeDepth) + " levels)");
      return;
    }
    // A system header keeps only its macros however it was named: its C text is not script syntax.
    include(file, at, *found, keep_text && !angled && !found->in_system_dir);
    kernel_macros(file, at, header, angled);
  }

  // After a kernel <header> whose types BTF gives: the few macros of it that BTF cannot.
  void kernel_macros(uint32_t file, uint32_t at, const std::string& header, bool angled) {
    const char* text = angled && options_.have_btf ? kernel_macros_beyond_btf(header) : nullptr;
    if (text) include(file, at, FoundHeader{"<built-in " + header + " macros>", text, -1, true}, false);
  }

  void include(uint32_t from, uint32_t at, const FoundHeader& found, bool keep_text, bool imported_script = false,
               bool by_import = false) {
    uint32_t f = add_file(found.path, found.text);
    if (imported_script) imported_scripts_.insert(f);
    stack_.push_back({from, at});
    by_import_.push_back(by_import);
    int saved_dir = current_dir_;
    current_dir_ = found.dir;
    // A file's last line may lack its newline; its text must not run into the includer's.
    process(f, keep_text, found.dir);
    if (keep_text && !out_.empty() && out_.back() != '\n') out_ += '\n';
    current_dir_ = saved_dir;
    stack_.pop_back();
    by_import_.pop_back();
  }

  const PreprocessOptions& options_;
  IncludeDirs dirs_;
  std::string predefined_;
  std::shared_ptr<OriginMap> map_;
  MacroTable macros_;
  std::vector<Conditional> conds_;
  std::vector<std::pair<uint32_t, uint32_t>> stack_;  // (file, offset) of each #include being read
  std::vector<bool> by_import_;                        // per stack_ entry: an import, not an #include
  std::set<std::string> imported_;                     // real paths of the files imported (and the script)
  std::set<uint32_t> imported_scripts_;                // files read as imported .bt scripts
  struct TopLevel {
    std::string head;                   // first word of the item being read outside every block
    bool root_statement_seen = false;   // a probe, macro or map declaration came already
  } top_;                               // of the file being read
  std::set<std::string> once_;
  std::set<std::string> skipped_;  // missing headers of system headers, noted once each
  int current_dir_ = -2;
  uint32_t main_ = 1;
  uint32_t depth_ = 0;      // '{' not yet closed in the script's text
  bool predicate_ = false;  // between the '/'s of a predicate, outside every block
  std::string out_;
  std::vector<Diagnostic> diagnostics_;
  int error_count_ = 0;
  std::vector<std::string> notes_;
};

}  // namespace

std::string predefined_macros(const arch::Table& table, bool have_btf) {
  std::string text =
      "#define __linux__ 1\n#define __linux 1\n#define __gnu_linux__ 1\n#define linux 1\n"
      "#define __unix__ 1\n#define __unix 1\n#define unix 1\n#define __ELF__ 1\n#define __STDC__ 1\n"
      "#define __CHAR_BIT__ 8\n#define __SIZEOF_INT__ 4\n"
      "#define __ORDER_LITTLE_ENDIAN__ 1234\n#define __ORDER_BIG_ENDIAN__ 4321\n#define __ORDER_PDP_ENDIAN__ 3412\n";
  bool lp64 = table.elf_class == 2;  // ELFCLASS64
  std::string word = lp64 ? "8" : "4";
  text += "#define __SIZEOF_LONG__ " + word + "\n#define __SIZEOF_POINTER__ " + word + "\n";
  if (lp64) text += "#define __LP64__ 1\n#define _LP64 1\n";
  std::string_view list = table.cpp_macros;
  while (!list.empty()) {
    size_t space = list.find(' ');
    std::string_view item = list.substr(0, space);
    list = space == std::string_view::npos ? std::string_view{} : list.substr(space + 1);
    if (item.empty()) continue;
    size_t eq = item.find('=');
    text += "#define " + std::string(item.substr(0, eq)) + " " +
            (eq == std::string_view::npos ? std::string("1") : std::string(item.substr(eq + 1))) + "\n";
  }
  if (have_btf) text += "#define BPFTRACE_HAVE_BTF 1\n";
  return text;
}

bool kernel_has_btf() { return access(kBtfPath, F_OK) == 0; }

PreprocessResult preprocess(const std::string& name, const std::string& text, const PreprocessOptions& options) {
  return Preprocessor(options).run(name, text);
}

}  // namespace rawprobe::lang
