// PMU type and format parsing (engine/sys/pmu.h) on fixture trees and on this machine's /sys.
#include <doctest/doctest.h>

#include <cerrno>
#include <filesystem>

#include "engine/sys/host_root.h"
#include "engine/sys/pmu.h"
#include "tests/unit/sys_fixture.h"

using namespace rawprobe;
using namespace rawprobe::sys;

TEST_CASE("parse_config_bits reads single bits and ranges") {
  Result<ConfigBits> one = parse_config_bits("config:0\n");
  REQUIRE(one);
  CHECK(one->first == 0);
  CHECK(one->last == 0);
  CHECK(one->place(1) == 1);
  CHECK(one->extract(0x3) == 1);

  Result<ConfigBits> range = parse_config_bits("config:32-63\n");
  REQUIRE(range);
  CHECK(range->first == 32);
  CHECK(range->last == 63);
  uint64_t offset = 0x4038;
  CHECK(range->place(offset) == offset << 32);
  CHECK(range->extract(range->place(offset) | 1) == offset);
  CHECK(range->fits(0xffffffffull));
  CHECK_FALSE(range->fits(0x100000000ull));
}

TEST_CASE("parse_config_bits rejects what is not a config bit range") {
  for (const char* bad : {"", "config:", "config1:0", "config:5-3", "config:64", "config:a", "config:1-"}) {
    CAPTURE(bad);
    Result<ConfigBits> r = parse_config_bits(bad);
    REQUIRE_FALSE(r);
    CHECK(!r.error().hint.empty());
  }
}

TEST_CASE("read_pmu reads type and formats from a fixture and remembers the PMU by type") {
  testing::TempTree tree;
  tree.write_probe_pmu("uprobe", 4711);
  tree.activate();
  Result<Pmu> pmu = read_pmu("uprobe");
  REQUIRE(pmu);
  CHECK(pmu->type == 4711);
  CHECK(pmu->retprobe.first == 0);
  CHECK(pmu->ref_ctr_offset.first == 32);
  const Pmu* known = pmu_by_type(4711);
  REQUIRE(known != nullptr);
  CHECK(known->name == "uprobe");
}

TEST_CASE("a PMU without ref_ctr_offset (before 4.20) reads as absent, not as an error") {
  testing::TempTree tree;
  tree.write("/sys/bus/event_source/devices/uprobe/type", "7\n");
  tree.write("/sys/bus/event_source/devices/uprobe/format/retprobe", "config:0\n");
  tree.activate();
  Result<Pmu> pmu = read_pmu("uprobe");
  REQUIRE(pmu);
  CHECK_FALSE(pmu->ref_ctr_offset.present());
}

TEST_CASE("a missing PMU is ENOENT with a hint naming the tracefs fallback") {
  testing::TempTree tree;
  tree.mkdir("/sys/bus/event_source/devices");
  tree.activate();
  Result<Pmu> pmu = read_pmu("kprobe");
  REQUIRE_FALSE(pmu);
  CHECK(pmu.error().err == ENOENT);
  CHECK(pmu.error().hint.find("kprobe_events") != std::string::npos);
}

TEST_CASE("a malformed type file is an error naming the file") {
  testing::TempTree tree;
  tree.write("/sys/bus/event_source/devices/uprobe/type", "seven\n");
  tree.activate();
  Result<Pmu> pmu = read_pmu("uprobe");
  REQUIRE_FALSE(pmu);
  CHECK(pmu.error().object.find("uprobe/type") != std::string::npos);
}

TEST_CASE("this machine's uprobe PMU parses, or its absence is ENOENT") {
  set_host_root("");
  std::string dir = "/sys/bus/event_source/devices/uprobe";
  if (!std::filesystem::exists(dir + "/type")) {  // a kernel before 4.17 or without uprobes
    Result<Pmu> pmu = read_pmu("uprobe");
    REQUIRE_FALSE(pmu);
    CHECK(pmu.error().err == ENOENT);
    return;
  }
  std::string type_text;
  REQUIRE(read_text_file(dir + "/type", type_text));
  Result<Pmu> pmu = read_pmu("uprobe");
  REQUIRE(pmu);
  CHECK(pmu->type == std::stoul(type_text));
  CHECK(pmu->retprobe.present() == std::filesystem::exists(dir + "/format/retprobe"));
}
