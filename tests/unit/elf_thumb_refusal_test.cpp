// Thumb code on 32-bit arm: the kernel's arm uprobes take ARM-state instructions only, so a
// uprobe or USDT probe on Thumb code is refused before attaching, naming Thumb and the
// kernel's limit. The samples are one program built with -mthumb (Debian's default) and
// -marm; the oracle is readelf: a function is Thumb when its symbol value has bit 0 set, a
// USDT site when the last $t/$a mapping symbol before it is $t.
#include "tests/unit/elf_test_support.h"

#include <map>

#include "elf/binary.h"
#include "elf/resolve.h"
#include "elf/thumb_code.h"

namespace rawprobe::elf::test {
namespace {

struct ReadelfSymbols {
  std::map<std::string, uint64_t> functions;  // defined FUNC symbols, raw st_value
  std::map<uint64_t, char> mapping;           // $a / $t by address
};

ReadelfSymbols readelf_symbols(const std::string& path) {
  ReadelfSymbols out;
  for (const std::string& line : lines(run("readelf -sW '" + path + "'"))) {
    std::istringstream in(line);
    std::string num, value, size, type, bind, vis, ndx, name;
    if (!(in >> num >> value >> size >> type >> bind >> vis >> ndx >> name)) continue;
    if (num.back() != ':' || ndx == "UND" || ndx == "Ndx") continue;
    uint64_t v = std::stoull(value, nullptr, 16);
    if (type == "FUNC" && name.find('@') == std::string::npos) out.functions[name] = v;
    if (type == "NOTYPE" && (name == "$t" || name == "$a")) out.mapping[v] = name[1];
  }
  return out;
}

std::vector<uint64_t> usdt_locations(const std::string& path) {
  std::vector<uint64_t> out;
  for (const std::string& line : lines(run("readelf -n '" + path + "'"))) {
    size_t at = line.find("Location: ");
    if (at != std::string::npos) out.push_back(std::stoull(line.substr(at + 10), nullptr, 16));
  }
  return out;
}

// The -mthumb and the -marm build, each with readelf's view of its symbols.
template <class Fn>
void for_each_arm_build(Fn check) {
  for (const char* sample : {"usdt_args_arm", "usdt_args_a32"}) {
    const std::string path = elf_sample(sample);
    CAPTURE(path);
    auto binary = Binary::open(path);
    REQUIRE(binary);
    check(path, readelf_symbols(path), *binary);
  }
}

}  // namespace

TEST_CASE("uprobes on Thumb functions are refused naming Thumb and the kernel's limit; ARM ones are accepted") {
  size_t thumb_seen = 0, arm_seen = 0;
  for_each_arm_build([&](const std::string&, const ReadelfSymbols& oracle, Binary& binary) {
    // The pair spelt out: clang 14 (the sanitizer build) cannot capture a structured
    // binding in CAPTURE's lambda.
    for (const auto& function : oracle.functions) {
      const std::string& name = function.first;
      uint64_t value = function.second;
      if (name.rfind("fire_", 0) != 0 && name != "main") continue;
      CAPTURE(name);
      auto site = resolve_function(binary, name, 0, {});
      if (value & 1) {
        ++thumb_seen;
        REQUIRE(!site);
        std::string text = site.error().message();
        CAPTURE(text);
        CHECK(text.find("Thumb code") != std::string::npos);
        CHECK(text.find("arch/arm/probes/uprobes") != std::string::npos);
        CHECK(text.find("-marm") != std::string::npos);
      } else {
        ++arm_seen;
        CHECK_MESSAGE(site, (site ? "" : site.error().message()));
      }
    }
  });
  // The -mthumb build's functions are Thumb, the -marm build's ARM: both kinds were checked.
  CHECK(thumb_seen >= 6);
  CHECK(arm_seen >= 6);
}

TEST_CASE("a wildcard matching only Thumb functions says why instead of 'no code'") {
  auto binary = Binary::open(elf_sample("usdt_args_arm"));
  REQUIRE(binary);
  REQUIRE((readelf_symbols(elf_sample("usdt_args_arm")).functions.at("fire_scalars") & 1) == 1);
  auto sites = resolve_function(*binary, "fire_*", 0, {});
  REQUIRE(!sites);
  CAPTURE(sites.error().message());
  CHECK(sites.error().message().find("Thumb code") != std::string::npos);
}

TEST_CASE("USDT sites in Thumb code are refused, those in ARM code are not, as the mapping symbols say") {
  size_t thumb_seen = 0, arm_seen = 0;
  for_each_arm_build([&](const std::string& path, const ReadelfSymbols& oracle, Binary& binary) {
    std::vector<uint64_t> locations = usdt_locations(path);
    REQUIRE(!locations.empty());
    for (uint64_t location : locations) {
      CAPTURE(location);
      auto last = oracle.mapping.upper_bound(location);
      REQUIRE(last != oracle.mapping.begin());
      bool thumb = std::prev(last)->second == 't';
      auto why = thumb_refusal(binary, location, "USDT probe");
      CHECK(why.has_value() == thumb);
      if (why) CHECK(why->message().find("arch/arm/probes/uprobes") != std::string::npos);
      (thumb ? thumb_seen : arm_seen)++;
    }
  });
  CHECK(thumb_seen > 0);
  CHECK(arm_seen > 0);
}

TEST_CASE("Thumb refusal never applies to other architectures") {
  auto binary = Binary::open(elf_sample("usdt_args_O2"));
  REQUIRE(binary);
  for (uint64_t location : usdt_locations(elf_sample("usdt_args_O2")))
    CHECK_FALSE(thumb_refusal(*binary, location | 1, "USDT probe"));
}

}  // namespace rawprobe::elf::test
