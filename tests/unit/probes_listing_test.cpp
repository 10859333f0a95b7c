// Listing and expansion without privileges, against binutils as the oracle: a sample's
// uprobe functions against nm, its USDT location against readelf -n, the online CPU list
// against sysconf.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/probes/listing.h"
#include "tests/unit/probes_capture.h"
#include "engine/base/cpu_list.h"
#include "engine/probes/perf_sampling.h"
#include "engine/probes/provider.h"

using namespace rawprobe;

namespace {

std::string samples_dir() {
  const char* dir = std::getenv("RAWPROBE_SAMPLES");
  return dir ? dir : "build/samples";
}

}  // namespace

TEST_CASE("uprobe listing of fun holds exactly nm's defined functions") {
  std::string fun = samples_dir() + "/fun";
  REQUIRE_MESSAGE(::access(fun.c_str(), R_OK) == 0, "build the samples: make samples");
  std::set<std::string> oracle;
  std::istringstream nm(probes::test::command_output("nm --defined-only " + fun + " | awk '$2 ~ /^[Tt]$/ {print $3}'"));
  for (std::string name; std::getline(nm, name);) oracle.insert("uprobe:" + fun + ":" + name);
  REQUIRE_FALSE(oracle.empty());
  std::set<std::string> mine;
  std::istringstream ours(probes::test::listed("uprobe:" + fun + ":*"));
  for (std::string line; std::getline(ours, line);) mine.insert(line);
  CHECK(mine == oracle);
}

TEST_CASE("usdt -lv of hello_usdt shows readelf's location and argument") {
  std::string bin = samples_dir() + "/hello_usdt";
  REQUIRE(::access(bin.c_str(), R_OK) == 0);
  std::string notes = probes::test::command_output("readelf -n " + bin);
  size_t at = notes.find("Location: ");
  REQUIRE(at != std::string::npos);
  uint64_t location = std::strtoull(notes.c_str() + at + 10, nullptr, 16);
  size_t args_at = notes.find("Arguments: ");
  REQUIRE(args_at != std::string::npos);
  std::string args = notes.substr(args_at + 11, notes.find('\n', args_at) - args_at - 11);
  std::string text = probes::test::listed("usdt:" + bin + ":*", true);
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(location));
  CHECK(text.find(std::string("location ") + hex) != std::string::npos);
  CHECK(text.find("arg0: " + args) != std::string::npos);
}

TEST_CASE("a uprobe's file offset for a PIE sample equals nm's address (text maps at its offset)") {
  std::string fun = samples_dir() + "/fun";
  lang::ProbeSpec spec;
  REQUIRE(lang::parse_probe_spec("uprobe:" + fun + ":bar", {}, spec));
  Result<std::vector<probes::AttachPoint>> points = probes::expand(spec, {});
  REQUIRE_MESSAGE(points, (points ? "" : points.error().message()));
  REQUIRE(points->size() == 1);
  uint64_t nm_address = std::strtoull(probes::test::command_output("nm " + fun + " | awk '$3 == \"bar\" {print $1}'").c_str(), nullptr, 16);
  CHECK((*points)[0].address == nm_address);
  // gcc's default PIE layout puts .text in a PT_LOAD whose vaddr equals its file offset.
  std::string segments = probes::test::command_output("readelf -lW " + fun + " | awk '$1 == \"LOAD\" && / E / {print $2, $3}'");
  uint64_t offset = 0, vaddr = 0;
  std::istringstream(segments) >> std::hex >> offset >> vaddr;
  CHECK((*points)[0].file_offset == nm_address - vaddr + offset);
  CHECK((*points)[0].name == "uprobe:" + fun + ":bar");
  CHECK(probes::program_type((*points)[0].kind) == probes::ProgramType::Kprobe);
}

TEST_CASE("online CPUs parse to sysconf's count; malformed lists are errors") {
  Result<std::vector<int>> cpus = probes::online_cpus();
  REQUIRE_MESSAGE(cpus, (cpus ? "" : cpus.error().message()));
  CHECK(cpus->size() == static_cast<size_t>(::sysconf(_SC_NPROCESSORS_ONLN)));
  CHECK_FALSE(parse_cpu_list("3-1"));
  CHECK_FALSE(parse_cpu_list("x"));
  CHECK_FALSE(probes::parse_attach_mode("fast"));
  CHECK(*probes::parse_attach_mode("legacy") == probes::AttachMode::Legacy);
}

TEST_CASE("listing errors name the problem") {
  probes::ListOptions options;
  options.pattern = "uprobe";
  FILE* null = std::fopen("/dev/null", "w");
  Status st = probes::list_probes(options, null);
  options.pattern = "uprobez:/bin/true:*";
  Status unknown = probes::list_probes(options, null);
  std::fclose(null);
  REQUIRE_FALSE(st);
  CHECK(st.error().message().find("needs a binary") != std::string::npos);
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().message().find("did you mean 'uprobe'") != std::string::npos);
}
