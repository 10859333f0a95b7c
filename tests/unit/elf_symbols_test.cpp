// Function symbols against readelf -s (both tables, versions), nm -C (demangling), and the
// symbol queries users type; refusals for IFUNCs, imports and unknown names; stripped
// binaries through build-id and .gnu_debuglink debug files.
#include "tests/unit/elf_test_support.h"

#include <elf.h>

#include <map>
#include <set>

#include "elf/binary.h"
#include "elf/resolve.h"
#include "elf/symbol_match.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;

namespace {

struct OracleSym {
  uint64_t value, size;
  std::string type, bind, name;  // name as readelf prints it (versioned in .dynsym)
};

// Defined FUNC/IFUNC entries of every symbol table readelf shows.
std::vector<OracleSym> readelf_functions(const std::string& path, std::map<std::string, size_t>* counts = nullptr) {
  std::vector<OracleSym> out;
  std::regex row(R"(^\s*\d+:\s+([0-9a-f]+)\s+(\S+)\s+(\S+)\s+(\S+)\s+\S+\s+(\S+)\s+(\S+))");
  std::regex header(R"(Symbol table '(\S+)' contains (\d+) entries)");
  for (const std::string& line : lines(run("readelf -sW --dyn-syms '" + path + "'"))) {
    std::smatch m;
    if (counts && std::regex_search(line, m, header)) (*counts)[m[1]] = std::stoul(m[2]);
    if (!std::regex_search(line, m, row)) continue;
    std::string type = m[3], ndx = m[5];
    if ((type != "FUNC" && type != "IFUNC") || ndx == "UND") continue;
    uint64_t size = m[2].str().rfind("0x", 0) == 0 ? std::stoull(m[2], nullptr, 16) : std::stoull(m[2]);
    out.push_back({std::stoull(m[1], nullptr, 16), size, type, m[4], m[6]});
  }
  return out;
}

}  // namespace

TEST_CASE("merged .symtab/.dynsym functions equal readelf's, with sizes, types and versions") {
  for (const std::string& path : {elf_sample("cxx_names"), elf_sample("usdt_args_O2"),
                                  elf_sample("usdt_args_arm"), system_library("libc.so.6"),
                                  system_library("libstdc++.so.6")}) {
    CAPTURE(path);
    auto file = ElfFile::open(path);
    REQUIRE(file);
    auto table = SymbolTable::read(*file);
    REQUIRE(table);
    std::set<std::pair<uint64_t, std::string>> ours, oracle;
    for (const Symbol& s : table->functions()) ours.insert({s.address, std::string(s.name)});
    size_t versioned = 0;
    for (const OracleSym& o : readelf_functions(path)) {
      uint64_t address = file->machine() == EM_ARM ? o.value & ~uint64_t{1} : o.value;
      std::string plain = o.name.substr(0, o.name.find('@'));
      oracle.insert({address, plain});
      // The merged entry carries the same size, type and (for versioned names) version.
      auto at = table->aliases_at(address);
      const Symbol* match = nullptr;
      for (const Symbol& s : at)
        if (s.name == plain && (s.versioned_name() == o.name || o.name == plain)) match = &s;
      REQUIRE_MESSAGE(match, o.name);
      CHECK(match->size == o.size);
      CHECK(match->ifunc() == (o.type == "IFUNC"));
      if (o.name.find('@') != std::string::npos) {
        CHECK(match->versioned_name() == o.name);
        ++versioned;
      }
    }
    CHECK(ours == oracle);
    if (path.find("libc.so") != std::string::npos) CHECK(versioned > 1000);
  }
}

TEST_CASE("demangled names equal nm -C, and quoted C++ names and wildcards select by them") {
  const std::string path = elf_sample("cxx_names");
  auto binary = Binary::open(path);
  REQUIRE(binary);
  auto table = binary->symbols();
  REQUIRE(table);
  std::multimap<uint64_t, std::string> nm;  // text symbols
  std::regex row(R"(^([0-9a-f]+) [TtWi] (.+)$)");
  for (const std::string& line : lines(run("nm -C --defined-only '" + path + "'"))) {
    std::smatch m;
    if (std::regex_match(line, m, row)) nm.emplace(std::stoull(m[1], nullptr, 16), m[2]);
  }
  size_t mangled = 0;
  for (const Symbol& s : (*table)->functions()) {
    bool seen = false;
    auto [lo, hi] = nm.equal_range(s.address);
    for (auto it = lo; it != hi; ++it) seen |= it->second == (*table)->demangled(s);
    CHECK_MESSAGE(seen, (*table)->demangled(s));
    mangled += s.name.substr(0, 2) == "_Z";
  }
  CHECK(mangled >= 6);
  // Every demangled nm name selects exactly the functions nm shows at that address.
  for (const auto& entry : nm) {
    uint64_t address = entry.first;
    const std::string& name = entry.second;
    if (name.find("::") == std::string::npos) continue;
    CAPTURE(name);
    auto found = find_functions(**table, parse_symbol_query("\"" + name + "\""));
    REQUIRE(found.size() == 1);
    CHECK(found[0]->address == address);
  }
  // A wildcard over demangled names finds what nm lists under that prefix.
  size_t in_ns = 0;
  for (const auto& entry : nm) in_ns += entry.second.find("ns::") != std::string::npos;
  CHECK(find_functions(**table, parse_symbol_query("\"*ns::*\"")).size() == in_ns);
}

TEST_CASE("wildcards follow shell rules") {
  CHECK(glob_match("*", ""));
  CHECK(glob_match("f?o*", "fooBar"));
  CHECK(!glob_match("f?o", "fo"));
  CHECK(glob_match("*_t*", "size_type"));
  CHECK(!glob_match("a*b", "acbd"));
  // Against a real table: "fire_*" is exactly the names readelf lists with that prefix.
  const std::string path = elf_sample("usdt_args_O2");
  auto file = ElfFile::open(path);
  REQUIRE(file);
  auto table = SymbolTable::read(*file);
  REQUIRE(table);
  std::set<std::string> oracle;
  for (const OracleSym& o : readelf_functions(path))
    if (o.name.rfind("fire_", 0) == 0) oracle.insert(o.name);
  std::set<std::string> ours;
  for (const Symbol* s : find_functions(*table, parse_symbol_query("fire_*"))) ours.insert(std::string(s->name));
  CHECK(ours == oracle);
  CHECK(oracle.size() >= 5);
}

TEST_CASE("aliases of one address are all kept, and resolve to one probe site") {
  const std::string path = elf_sample("cxx_names");
  auto binary = Binary::open(path);
  REQUIRE(binary);
  auto table = binary->symbols();
  REQUIRE(table);
  auto original = find_functions(**table, parse_symbol_query("original_name"));
  REQUIRE(original.size() == 1);
  std::set<std::string> names;
  for (const Symbol& s : (*table)->aliases_at(original[0]->address)) names.insert(std::string(s.name));
  // nm's view of the same address.
  std::set<std::string> nm_names;
  std::regex row(R"(^([0-9a-f]+) \S (.+)$)");
  for (const std::string& line : lines(run("nm --defined-only '" + path + "'"))) {
    std::smatch m;
    if (std::regex_match(line, m, row) && std::stoull(m[1], nullptr, 16) == original[0]->address)
      nm_names.insert(m[2]);
  }
  CHECK(names == nm_names);
  CHECK(names.size() >= 2);
  auto sites = resolve_function(*binary, "*_name", 0, {});
  REQUIRE(sites);
  CHECK(sites->size() == 1);
}

TEST_CASE("IFUNC symbols, imports and unknown names are refused with the reason") {
  auto binary = Binary::open(elf_sample("cxx_names"));
  REQUIRE(binary);
  auto ifunc = resolve_function(*binary, "add", 0, {});
  REQUIRE(!ifunc);
  CHECK(ifunc.error().message().find("IFUNC") != std::string::npos);
  ResolveOptions resolver;
  resolver.ifunc_resolver = true;
  auto by_name = resolve_function(*binary, "add", 0, resolver);
  REQUIRE(by_name);
  // The hint's address form names the resolver: readelf's value for the IFUNC symbol 'add',
  // and probing that address (BIN:0xADDR) gives the same site.
  std::string hint = ifunc.error().hint;
  CAPTURE(hint);
  std::string spec = "uprobe:" + elf_sample("cxx_names") + ":0x";
  size_t at = hint.find(spec);
  REQUIRE(at != std::string::npos);
  uint64_t address = std::stoull(hint.substr(at + spec.size()), nullptr, 16);
  uint64_t readelf_value = 0;
  for (const OracleSym& o : readelf_functions(elf_sample("cxx_names")))
    if (o.name == "add" && o.type == "IFUNC") readelf_value = o.value;
  CHECK(address == readelf_value);
  auto by_address = resolve_address(*binary, address, {});
  REQUIRE(by_address);
  CHECK(by_address->file_offset == by_name->front().file_offset);

  auto import = resolve_function(*binary, "printf", 0, {});
  REQUIRE(!import);
  CHECK(import.error().message().find("only imports") != std::string::npos);

  std::map<std::string, size_t> counts;
  readelf_functions(elf_sample("cxx_names"), &counts);
  auto missing = resolve_function(*binary, "no_such_function", 0, {});
  REQUIRE(!missing);
  std::string text = missing.error().message();
  CAPTURE(text);
  CHECK(text.find(".symtab of") != std::string::npos);
  CHECK(text.find(std::to_string(counts[".symtab"]) + " symbols") != std::string::npos);
  CHECK(text.find(std::to_string(counts[".dynsym"]) + " symbols") != std::string::npos);
}

TEST_CASE("stripped binaries find functions in their separate debug files") {
  // The unstripped build is the oracle for where each function is.
  auto full = Binary::open(elf_sample("usdt_args_O2"));
  REQUIRE(full);
  auto expected = resolve_function(*full, "fire_globals", 0, {});
  REQUIRE(expected);

  SUBCASE("by build ID under the debug root") {
    FsRoots roots;
    roots.root = elf_sample("debugroot");
    auto stripped = Binary::open(elf_sample("usdt_args_buildid"), roots);
    REQUIRE(stripped);
    auto site = resolve_function(*stripped, "fire_globals", 0, {});
    REQUIRE_MESSAGE(site, (site ? "" : site.error().message()));
    CHECK((*site)[0].file_offset == (*expected)[0].file_offset);
    // Without the debug root the message says what was searched.
    FsRoots empty;
    empty.root = scratch_dir("no-debug");
    auto bare = Binary::open(elf_sample("usdt_args_buildid"), empty);
    REQUIRE(bare);
    auto missing = resolve_function(*bare, "fire_globals", 0, {});
    REQUIRE(!missing);
    CHECK(missing.error().message().find("absent: stripped") != std::string::npos);
    CHECK(missing.error().message().find(".build-id/") != std::string::npos);
  }
  SUBCASE("by .gnu_debuglink in the .debug directory") {
    auto stripped = Binary::open(elf_sample("usdt_args_debuglink"));
    REQUIRE(stripped);
    auto site = resolve_function(*stripped, "fire_globals", 0, {});
    REQUIRE_MESSAGE(site, (site ? "" : site.error().message()));
    CHECK((*site)[0].file_offset == (*expected)[0].file_offset);
  }
}
