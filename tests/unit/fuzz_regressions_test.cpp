// Inputs the fuzz targets once crashed on, replayed through the same target code on every
// run of the unit suite (tests/fuzz/replay.h): tests/fuzz/regressions/<target>/<input>. A
// target that crashes again takes this binary down, which tests/run-suites counts as a
// failure; one whose property check breaks aborts the same way.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "tests/fuzz/replay.h"

namespace fs = std::filesystem;

namespace rawprobe::fuzz {
std::map<std::string, Entry>& replay_targets() {
  static std::map<std::string, Entry> targets;
  return targets;
}
}  // namespace rawprobe::fuzz

namespace {

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int replay(rawprobe::fuzz::Entry entry, const std::string& bytes) {
  return entry(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

TEST_CASE("every fuzz target of tests/fuzz is in the unit binary for replay") {
  std::set<std::string> sources;
  for (const auto& e : fs::directory_iterator("tests/fuzz")) {
    std::string name = e.path().filename().string();
    if (name.ends_with("_fuzz.cpp")) sources.insert(name.substr(0, name.size() - 4));
  }
  REQUIRE(!sources.empty());
  std::set<std::string> registered;
  for (const auto& [name, entry] : rawprobe::fuzz::replay_targets()) registered.insert(name);
  CHECK(registered == sources);
}

TEST_CASE("the fuzz targets' regression inputs replay without a crash") {
  size_t inputs = 0;
  for (const auto& dir : fs::directory_iterator("tests/fuzz/regressions")) {
    if (!dir.is_directory()) continue;
    std::string target = dir.path().filename().string();
    CAPTURE(target);
    auto it = rawprobe::fuzz::replay_targets().find(target);
    // A directory must name a target, or its inputs would silently never run.
    REQUIRE_MESSAGE(it != rawprobe::fuzz::replay_targets().end(), "no fuzz target ", target);
    for (const auto& input : fs::directory_iterator(dir.path())) {
      CAPTURE(input.path().string());
      CHECK(replay(it->second, read_bytes(input.path())) == 0);
      ++inputs;
    }
  }
  MESSAGE(inputs, " regression inputs replayed");
  CHECK(inputs > 0);
}

TEST_CASE("the checked-in fuzz seeds replay without a crash") {
  // The request parser's seeds are real requests kept in the tree (mk/exporter.mk).
  auto entry = rawprobe::fuzz::replay_targets().at("metrics_request_fuzz");
  size_t inputs = 0;
  for (const auto& input : fs::directory_iterator("tests/fuzz/metrics_request_seeds")) {
    CHECK(replay(entry, read_bytes(input.path())) == 0);
    ++inputs;
  }
  CHECK(inputs > 0);
}
