#include "engine/lang/imports.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

#include "engine/lang/pp_token.h"
#include "engine/lang/preprocess_include.h"

namespace rawprobe::lang {
namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string join(const std::string& dir, const std::string& name) {
  if (dir.empty() || dir == ".") return name;
  return dir.back() == '/' ? dir + name : dir + "/" + name;
}

std::string octal_mode(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", unsigned(mode & 07777));
  return text;
}

// Why `path` may not be imported from, or nullopt: it, or the directory holding it, is
// writable by every user. The sticky bit does not help: in /tmp anyone may create the name
// before its owner does.
std::optional<std::string> world_writable(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && (st.st_mode & S_IWOTH))
    return path + " is writable by every user (mode " + octal_mode(st.st_mode) + ")";
  std::string dir = directory_of(path);
  if (stat(dir.c_str(), &st) == 0 && (st.st_mode & S_IWOTH))
    return "its directory " + dir + " is writable by every user (mode " + octal_mode(st.st_mode) + ")";
  return std::nullopt;
}

Error refusal(const std::string& name, const std::string& path, const std::string& why) {
  return make_error("import \"" + name + "\": refusing " + path + ": " + why +
                        ", so anyone could change what this script runs",
                    {},
                    "move it to a directory only its owner can write, or remove the write permission "
                    "(chmod o-w)");
}

// What a file's name says it is.
enum class Extension { Script, Header, BpfC, BpfObject, Other };
Extension extension_of(const std::string& path) {
  if (ends_with(path, ".bt")) return Extension::Script;
  if (ends_with(path, ".h")) return Extension::Header;
  if (ends_with(path, ".bpf.c")) return Extension::BpfC;
  if (ends_with(path, ".bpf.o")) return Extension::BpfObject;
  return Extension::Other;
}

Result<ImportedFile> read_import(const std::string& name, const std::string& path) {
  ImportedFile f;
  f.path = path;
  switch (extension_of(path)) {
    case Extension::Script: f.kind = ImportKind::Script; break;
    case Extension::Header: f.kind = ImportKind::Header; break;
    case Extension::BpfC:
      return make_error("import \"" + name + "\": " + path +
                            " is C source, which must be compiled to BPF by a C compiler (bpftrace runs "
                            "clang); rawprobe has no C compiler, by design",
                        {}, "write the logic in the script itself, or run this script with bpftrace");
    case Extension::BpfObject:
      return make_error("import \"" + name + "\": " + path +
                            " is a BPF object, which must be linked into the script's programs; rawprobe "
                            "has no BPF linker",
                        {}, "write the logic in the script itself, or run this script with bpftrace");
    case Extension::Other:
      return make_error("import \"" + name + "\": unknown import type: " + path, {},
                        "import a bpftrace script (.bt), a C header (.h) or a directory of them");
  }
  if (std::optional<std::string> why = world_writable(path)) return refusal(name, path, *why);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in) return make_error("import \"" + name + "\": cannot read " + path, {}, "check that it is a readable file");
  f.text = text.str();
  return f;
}

// The .bt and .h files directly in `dir`: headers first, so a script there can use their types.
Result<std::vector<ImportedFile>> read_import_directory(const std::string& name, const std::string& dir) {
  DIR* d = opendir(dir.c_str());
  if (!d) return make_error("import \"" + name + "\": cannot list " + dir, {}, "check that it is a readable directory");
  std::vector<std::string> headers, scripts;
  while (dirent* e = readdir(d)) {
    std::string path = join(dir, e->d_name);
    struct stat st;
    if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    switch (extension_of(path)) {
      case Extension::Header: headers.push_back(path); break;
      case Extension::Other: break;
      default: scripts.push_back(path); break;  // .bpf.c and .bpf.o are refused when read
    }
  }
  closedir(d);
  if (headers.empty() && scripts.empty())
    return make_error("import \"" + name + "\": directory " + dir + " has no .bt or .h files", {},
                      "import the files it holds by name, or put the scripts to import there");
  std::sort(headers.begin(), headers.end());
  std::sort(scripts.begin(), scripts.end());
  headers.insert(headers.end(), scripts.begin(), scripts.end());
  std::vector<ImportedFile> files;
  for (const std::string& path : headers) {
    Result<ImportedFile> f = read_import(name, path);
    if (!f) return f.error();
    files.push_back(std::move(*f));
  }
  return files;
}

}  // namespace

bool starts_import(std::string_view text, uint32_t pos) {
  if (text.substr(pos, 6) != "import") return false;
  if (pos > 0 && pp_ident_char(text[pos - 1])) return false;
  char next = pos + 6 < text.size() ? text[pos + 6] : '\n';
  return next == ' ' || next == '\t' || next == '"';
}

Result<ImportStatement> read_import_statement(std::string_view text, uint32_t pos) {
  uint32_t n = uint32_t(text.size()), p = pos + 6;
  uint32_t eol = uint32_t(std::min<size_t>(text.find('\n', pos), n));
  while (p < eol && (text[p] == ' ' || text[p] == '\t')) ++p;
  ImportStatement s;
  if (p >= eol || text[p] != '"') {
    Error e = make_error("import needs a quoted file name on its line: import \"file.bt\";");
    e.at = SourceRange{pos, pos + 6};
    return e;
  }
  s.name_offset = p;
  size_t close = text.find('"', p + 1);
  if (close == std::string_view::npos || close > eol) {
    Error e = make_error("the file name of this import has no closing '\"'");
    e.at = SourceRange{p, eol};
    return e;
  }
  s.name = std::string(text.substr(p + 1, close - p - 1));
  s.name_length = uint32_t(close - p + 1);
  p = uint32_t(close + 1);
  while (p < eol && (text[p] == ' ' || text[p] == '\t')) ++p;
  if (p >= eol || text[p] != ';') {
    Error e = make_error("expected ';' after import \"" + s.name + "\"");
    e.at = SourceRange{s.name_offset, s.name_offset + s.name_length};
    return e;
  }
  s.end = p + 1;
  if (s.name.empty()) {
    Error e = make_error("import needs a file name: import \"file.bt\";");
    e.at = SourceRange{s.name_offset, s.name_offset + s.name_length};
    return e;
  }
  return s;
}

Result<std::vector<ImportedFile>> resolve_import(const std::string& name, const std::vector<std::string>& dirs) {
  std::vector<std::string> candidates;
  if (name.empty()) return make_error("import needs a file name: import \"file.bt\";");
  if (name[0] == '/') candidates.push_back(name);
  else
    for (const std::string& dir : dirs) candidates.push_back(join(dir, name));
  std::optional<Error> refused;
  for (const std::string& path : candidates) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) continue;
    // As bpftrace: a refused place does not end the search, a later directory may hold the name.
    if (std::optional<std::string> why = world_writable(path)) {
      if (!refused) refused = refusal(name, path, *why);
      continue;
    }
    if (S_ISDIR(st.st_mode)) return read_import_directory(name, path);
    // A FIFO or a device would block the read or never end; bpftrace imports files too.
    if (!S_ISREG(st.st_mode))
      return make_error("import \"" + name + "\": " + path + " is neither a regular file nor a directory", {},
                        "import the file itself");
    Result<ImportedFile> f = read_import(name, path);
    if (!f) return f.error();
    return std::vector<ImportedFile>{std::move(*f)};
  }
  if (refused) return *refused;
  std::string searched;
  for (const std::string& path : candidates) searched += (searched.empty() ? "" : ", ") + path;
  return make_error("import \"" + name + "\": not found (looked for " + searched + ")", {},
                    "put it beside the script, give its directory with -I DIR, or write its absolute path");
}

}  // namespace rawprobe::lang
