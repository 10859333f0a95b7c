// Symbol queries: exact, wildcard and demangled.
#include "elf/symbol_match.h"

namespace rawprobe::elf {

SymbolQuery parse_symbol_query(std::string_view pattern) {
  SymbolQuery q;
  if (pattern.size() >= 2 && pattern.front() == '"' && pattern.back() == '"') {
    pattern = pattern.substr(1, pattern.size() - 2);
    q.demangled = true;
  }
  q.text = std::string(pattern);
  if (pattern.find("::") != std::string_view::npos || pattern.find('(') != std::string_view::npos)
    q.demangled = true;
  q.wildcard = pattern.find_first_of("*?") != std::string_view::npos;
  return q;
}

static bool name_matches(const SymbolTable& table, const Symbol& s, const SymbolQuery& q) {
  if (q.demangled) {
    const std::string& d = table.demangled(s);
    return q.wildcard ? glob_match(q.text, d) : d == q.text;
  }
  if (q.wildcard) return glob_match(q.text, s.name) || glob_match(q.text, s.versioned_name());
  if (s.name == q.text) return true;
  // Only build the versioned spelling when the query could be one.
  return !s.version.empty() && q.text.find('@') != std::string::npos &&
         s.versioned_name() == q.text;
}

std::vector<const Symbol*> find_functions(const SymbolTable& table, const SymbolQuery& query) {
  std::vector<const Symbol*> found;
  for (const Symbol& s : table.functions())
    if (name_matches(table, s, query)) found.push_back(&s);
  return found;
}

}  // namespace rawprobe::elf
