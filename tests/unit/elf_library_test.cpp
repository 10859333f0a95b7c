// Library and program lookup: our ld.so.cache parser against `ldconfig -p`, library names as
// users type them, $PATH, and -p PID through /proc/PID/maps and /proc/PID/root (a fixture
// /proc for a process "in a container", and this test process itself).
#include "tests/unit/elf_test_support.h"

#include <unistd.h>

#include <map>

#include "elf/binary.h"
#include "elf/ld_cache.h"
#include "elf/library_path.h"
#include "elf/resolve.h"

using namespace rawprobe::elf;
using namespace rawprobe::elf::test;

namespace {

// soname -> first path for this architecture, from ldconfig -p.
std::multimap<std::string, std::string> ldconfig() {
  std::multimap<std::string, std::string> out;
  std::regex row(R"(^\s+(\S+) \(([^)]*)\) => (\S+)$)");
  for (const std::string& line : lines(run("ldconfig -p"))) {
    std::smatch m;
    if (std::regex_match(line, m, row)) out.emplace(m[1], m[3]);
  }
  return out;
}

std::string realpath_of(const std::string& p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? buf : p;
}

}  // namespace

TEST_CASE("our ld.so.cache parser reads what ldconfig -p prints") {
  auto entries = read_ld_cache("/etc/ld.so.cache");
  REQUIRE_MESSAGE(entries, (entries ? "" : entries.error().message()));
  std::multimap<std::string, std::string> ours;
  for (const LdCacheEntry& e : *entries) ours.emplace(e.soname, e.path);
  CHECK(ours == ldconfig());
  // Corrupt caches are errors, not crashes.
  std::string bytes = read_file("/etc/ld.so.cache");
  for (size_t cut : {size_t{0}, size_t{30}, bytes.size() / 2}) {
    std::string part = bytes.substr(0, cut);
    auto r = parse_ld_cache({reinterpret_cast<const uint8_t*>(part.data()), part.size()}, "cut");
    CHECK(!r);
  }
}

TEST_CASE("library names resolve like the dynamic linker would") {
  auto cache = ldconfig();
  for (const char* soname : {"libc.so.6", "libstdc++.so.6", "libelf.so.1"}) {
    CAPTURE(soname);
    auto it = cache.find(soname);
    REQUIRE(it != cache.end());
    auto exact = find_binary({soname, {}, nullptr, {}});
    REQUIRE_MESSAGE(exact, (exact ? "" : exact.error().message()));
    CHECK(realpath_of(*exact) == realpath_of(it->second));
    // "libc" for libc.so.6: the short form bpftrace users type.
    std::string short_name = std::string(soname).substr(0, std::string(soname).find(".so"));
    auto by_short = find_binary({short_name, {}, nullptr, {}});
    REQUIRE(by_short);
    CHECK(realpath_of(*by_short) == realpath_of(it->second));
  }
  auto missing = find_binary({"libdoesnotexist", {}, nullptr, {}});
  REQUIRE(!missing);
  CHECK(missing.error().message().find("ld.so.cache") != std::string::npos);
  // Programs through $PATH; the oracle is the shell's own lookup.
  auto python = find_binary({"python3.11", {}, nullptr, {}});
  REQUIRE(python);
  std::string expected = run("command -v python3.11");
  CHECK(*python + "\n" == expected);
}

TEST_CASE("with a pid, libraries come from the process's maps, opened through its root") {
  SUBCASE("this process") {
    auto libc = find_binary({"libc", getpid(), nullptr, {}});
    REQUIRE_MESSAGE(libc, (libc ? "" : libc.error().message()));
    std::string prefix = "/proc/" + std::to_string(getpid()) + "/root/";
    CHECK(libc->rfind(prefix, 0) == 0);
    CHECK(realpath_of(*libc) == realpath_of(*find_binary({"libc.so.6", {}, nullptr, {}})));
  }
  SUBCASE("a fixture /proc: a containerized process whose library exists only in its root") {
    std::string proc = scratch_dir("proc");
    std::string lib_dir = proc + "/4242/root/opt/app/lib";
    run("mkdir -p '" + lib_dir + "'");
    run("cp '" + elf_sample("libusdt_based.so") + "' '" + lib_dir + "/libusdt_based.so'");
    write_file(proc + "/4242/maps",
               "55d0c0000000-55d0c0001000 r--p 00000000 08:01 100 /usr/bin/app\n"
               "7f0000000000-7f0000001000 r-xp 00001000 08:01 200 /opt/app/lib/libusdt_based.so\n"
               "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]\n");
    FsRoots roots;
    roots.proc = proc;
    auto found = find_binary({"libusdt_based", 4242, nullptr, {}}, roots);
    REQUIRE_MESSAGE(found, (found ? "" : found.error().message()));
    CHECK(*found == lib_dir + "/libusdt_based.so");
    // Its USDT probes resolve from there.
    auto binary = Binary::open(*found);
    REQUIRE(binary);
    CHECK(resolve_usdt(*binary, "usdt_args", "scalars"));
    auto absent = find_binary({"libssl", 4242, nullptr, {}}, roots);
    REQUIRE(!absent);
    CHECK(absent.error().message().find("libusdt_based.so") != std::string::npos);
  }
}
