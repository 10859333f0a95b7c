// The symbolizers without a kernel: kallsyms text, /proc/PID/maps lines, ELF symbol tables and
// the memory-bounded cache, each against an oracle (nm, the maps file itself).
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <sstream>

#include "engine/base/hex.h"
#include "engine/base/layout.h"
#include "engine/output/folded_print.h"
#include "engine/symbols/file_symbols.h"
#include "engine/symbols/kernel_symbols.h"
#include "engine/symbols/process_maps.h"
#include "engine/symbols/symbol_cache.h"
#include "tests/unit/elf_test_support.h"

namespace rawprobe::symbols {
namespace {

using elf::test::elf_sample;
using elf::test::run;

struct NmLine {
  uint64_t address = 0, size = 0;
  char type = 0;
  std::string name;
};

// nm -S -n of `path`: defined symbols with their sizes, by address.
std::vector<NmLine> nm(const std::string& path, const std::string& flags = "") {
  std::vector<NmLine> out;
  std::istringstream in(run("nm -S -n --defined-only " + flags + " " + path));
  std::string line;
  while (std::getline(in, line)) {
    // "ADDR SIZE TYPE NAME", or "ADDR TYPE NAME" for a symbol without a size.
    std::istringstream l(line);
    std::string addr, second, type;
    NmLine n;
    if (!(l >> addr >> second)) continue;
    if (second.size() == 1) {
      type = second;
    } else {
      if (!(l >> type)) continue;
      n.size = std::stoull(second, nullptr, 16);
    }
    std::getline(l >> std::ws, n.name);
    n.address = std::stoull(addr, nullptr, 16);
    n.type = type[0];
    out.push_back(n);
  }
  return out;
}

}  // namespace

TEST_CASE("kallsyms: the nearest text symbol at or below, data skipped, modules kept (fixture from nm)") {
  // nm's lines are kallsyms' shape ("ADDR TYPE NAME"); every other function is given a module.
  std::vector<NmLine> syms = nm(elf_sample("cxx_names"));
  REQUIRE(syms.size() > 10);
  std::string text;
  size_t n = 0;
  std::map<uint64_t, std::pair<std::string, std::string>> text_syms;  // address -> name, module
  for (const NmLine& s : syms) {
    if (s.address == 0) continue;
    std::string module = n++ % 2 ? "mod" + std::to_string(n % 3) : "";
    text += rawprobe::hex(s.address).substr(2) + " " + s.type + " " + s.name + (module.empty() ? "" : "\t[" + module + "]") + "\n";
    bool data = std::string("bBdDrR").find(s.type) != std::string::npos;
    if (!data) text_syms[s.address] = {s.name, module};  // the last listed at an address wins
  }
  KernelSymbols table = KernelSymbols::parse(text);
  CHECK(!table.addresses_hidden());
  for (auto it = text_syms.begin(); it != text_syms.end(); ++it) {
    auto next = std::next(it);
    uint64_t probe = next == text_syms.end() ? it->first + 100 : next->first - 1;
    std::optional<KernelFrame> f = table.find(probe);
    REQUIRE(f);
    CHECK(f->name == it->second.first);
    CHECK(f->module == it->second.second);
    CHECK(f->offset == probe - it->first);
  }
  CHECK_FALSE(table.find(text_syms.begin()->first - 1));
  // Every address zero: what a non-root reader sees.
  CHECK(KernelSymbols::parse("0000000000000000 T a\n0000000000000000 t b\n").addresses_hidden());
}

TEST_CASE("process maps: each line's fields as /proc/self/maps writes them") {
  std::string text = elf::test::read_file("/proc/self/maps");
  std::vector<Mapping> maps = parse_maps(text);
  std::vector<std::string> lines = elf::test::lines(text);
  REQUIRE(maps.size() == lines.size());
  for (size_t i = 0; i < maps.size(); ++i) {
    unsigned long long start, end, offset, inode;
    unsigned major, minor;
    char perms[8];
    int path_at = 0;
    REQUIRE(std::sscanf(lines[i].c_str(), "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &offset, &major,
                        &minor, &inode, &path_at) == 7);
    CHECK(maps[i].start == start);
    CHECK(maps[i].end == end);
    CHECK(maps[i].offset == offset);
    CHECK(maps[i].device == (uint64_t(major) << 32 | minor));
    CHECK(maps[i].inode == inode);
    CHECK(maps[i].executable == (perms[2] == 'x'));
    CHECK(maps[i].path == lines[i].substr(size_t(path_at)));
  }
  Mapping memfd;
  memfd.path = "/memfd:lib (deleted)";
  CHECK(memfd.file_gone());
  memfd.path = "/tmp/x.so (deleted)";
  CHECK(memfd.file_gone());
  memfd.path = "/tmp/x.so";
  CHECK_FALSE(memfd.file_gone());
}

TEST_CASE("file symbols: every function nm sizes is found inside itself, demangled as nm -C names it") {
  const std::string path = elf_sample("cxx_names");
  Result<FileSymbols> table = FileSymbols::load(path, {});
  REQUIRE(table);
  std::vector<NmLine> plain = nm(path), demangled = nm(path, "-C");
  REQUIRE(plain.size() == demangled.size());
  // Only addresses with one symbol of code (T, t, W, w, i): which alias a table names is a
  // choice, not a fact nm can check.
  std::map<uint64_t, int> functions_at;
  for (const NmLine& s : plain)
    if (std::string("TtWwi").find(s.type) != std::string::npos) functions_at[s.address]++;
  size_t checked = 0, cxx = 0;
  for (size_t i = 0; i < plain.size(); ++i) {
    const NmLine& s = plain[i];
    if ((s.type != 'T' && s.type != 't') || !s.size || functions_at[s.address] != 1) continue;
    for (uint64_t off : {uint64_t(0), s.size / 2, s.size - 1}) {
      std::optional<UserFrame> f = table->find_address(s.address + off);
      REQUIRE_MESSAGE(f, s.name << "+" << off);
      CHECK(f->name == demangled[i].name);
      CHECK(f->offset == off);
    }
    CHECK(table->address_of(s.name) == s.address);
    ++checked;
    if (demangled[i].name.find("::") != std::string::npos) ++cxx;
  }
  CHECK(checked >= 5);
  CHECK(cxx >= 1);  // a C++ name was demangled
  CHECK(table->bytes() > 0);
}

TEST_CASE("symbol cache: whole tables evicted least recently used first, within the budget") {
  const std::string path = elf_sample("cxx_names");
  Result<FileSymbols> one = FileSymbols::load(path, {});
  REQUIRE(one);
  size_t size = one->bytes();
  // Room for two tables and a half.
  SymbolCache cache(size * 5 / 2);
  int loads = 0;
  auto load = [&] {
    ++loads;
    return FileSymbols::load(path, {});
  };
  CHECK(cache.get("a", load));
  CHECK(cache.get("b", load));
  CHECK(cache.get("a", load));  // a is now the most recent
  CHECK(loads == 2);
  CHECK(cache.get("c", load));  // evicts b, the least recent
  CHECK(cache.stats().evictions == 1);
  CHECK(cache.stats().tables == 2);
  CHECK(cache.stats().bytes <= cache.budget());
  CHECK(cache.stats().peak_bytes == 3 * size);
  CHECK(cache.get("a", load));
  CHECK(loads == 3);
  CHECK(cache.get("b", load));  // loaded again
  CHECK(loads == 4);
  // A file that cannot be read is tried once.
  auto missing = [&] {
    ++loads;
    return FileSymbols::load("/nonexistent/file", {});
  };
  CHECK_FALSE(cache.get("d", missing));
  CHECK_FALSE(cache.get("d", missing));
  CHECK(loads == 5);
}

TEST_CASE("folded key: the other key parts are the roots, then the stack's own frames") {
  // A (string comm, folded stack text) key, laid out as the runtime lays out text keys.
  std::vector<Type> parts = {Type::string(16), Type::string(32)};
  StructLayout layout = layout_of(parts);
  std::vector<uint8_t> key(layout.size, 0);
  std::string comm = "fun", stack = "main;fun;foo;bar";
  std::copy(comm.begin(), comm.end(), key.begin() + layout.offsets[0]);
  std::copy(stack.begin(), stack.end(), key.begin() + layout.offsets[1]);
  std::string out;
  append_folded_key(out, parts, layout.offsets, {false, true}, key.data());
  CHECK(out == comm + ";" + stack);
  // The stack first in the key: still the roots first.
  std::vector<Type> swapped = {Type::string(32), Type::string(16)};
  StructLayout l2 = layout_of(swapped);
  std::vector<uint8_t> key2(l2.size, 0);
  std::copy(stack.begin(), stack.end(), key2.begin() + l2.offsets[0]);
  std::copy(comm.begin(), comm.end(), key2.begin() + l2.offsets[1]);
  out.clear();
  append_folded_key(out, swapped, l2.offsets, {true, false}, key2.data());
  CHECK(out == comm + ";" + stack);
}

}  // namespace rawprobe::symbols
