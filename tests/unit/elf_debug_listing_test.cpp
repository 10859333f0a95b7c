// Listing a stripped binary through its separate debug file, both ways gdb finds one (build ID
// under the debug root, .gnu_debuglink beside the binary): the names are readelf's functions
// of the unstripped build, each placed at the same address, with the debug file named as
// their table (mk/elf.mk makes usdt_args_buildid and usdt_args_debuglink from usdt_args_O2).
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <string>

#include "elf/listing.h"
#include "tests/unit/elf_test_support.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;

namespace {

// Defined FUNC symbols of the unstripped build, name -> address, per readelf.
std::map<std::string, uint64_t> readelf_functions(const std::string& path) {
  std::map<std::string, uint64_t> out;
  std::regex row(R"(^\s*\d+:\s+([0-9a-f]+)\s+\d+\s+FUNC\s+\w+\s+\w+\s+(\w+)\s+(\S+))");
  for (const std::string& line : lines(run("readelf -sW " + path))) {
    std::smatch m;
    if (std::regex_search(line, m, row) && m[2] != "UND") out[m[3]] = std::stoull(m[1], nullptr, 16);
  }
  return out;
}

std::map<std::string, uint64_t> listed(Binary& binary) {
  auto names = list_function_names(binary, parse_symbol_query("*"));
  REQUIRE_MESSAGE(names, (names ? "" : names.error().message()));
  std::map<std::string, uint64_t> out;
  for (const ListedName& n : names->names) {
    CHECK_MESSAGE((n.symbol->sources & kFromDebugFile), n.name);
    out[std::string(n.name)] = n.symbol->address;
  }
  return out;
}

}  // namespace

TEST_CASE("a stripped binary lists its debug file's functions, found by build ID or .gnu_debuglink") {
  std::map<std::string, uint64_t> oracle = readelf_functions(elf_sample("usdt_args_O2"));
  REQUIRE(oracle.count("fire_globals"));
  // The stripped builds themselves have no function symbol left (an executable's .dynsym
  // holds only imports): whatever is listed came from the debug file.
  REQUIRE(readelf_functions(elf_sample("usdt_args_debuglink")).empty());
  SUBCASE("by build ID under the debug root") {
    FsRoots roots;
    roots.root = elf_sample("debugroot");
    auto stripped = Binary::open(elf_sample("usdt_args_buildid"), roots);
    REQUIRE(stripped);
    CHECK(listed(*stripped) == oracle);
    CHECK(stripped->debug_path().find(elf_sample("debugroot") + "/usr/lib/debug/.build-id/") == 0);
    // With no debug file installed, nothing is listed, and that is no error.
    FsRoots empty;
    empty.root = scratch_dir("no-debug-listing");
    auto bare = Binary::open(elf_sample("usdt_args_buildid"), empty);
    REQUIRE(bare);
    auto none = list_function_names(*bare, parse_symbol_query("*"));
    REQUIRE(none);
    CHECK(none->names.empty());
  }
  SUBCASE("by .gnu_debuglink in the .debug directory") {
    auto stripped = Binary::open(elf_sample("usdt_args_debuglink"));
    REQUIRE(stripped);
    CHECK(listed(*stripped) == oracle);
    CHECK(stripped->debug_path() == elf_sample(".debug/usdt_args_debuglink.debug"));
  }
}
