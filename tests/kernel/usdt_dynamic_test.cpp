// Dynamic USDT: `usdt:*` with -p PID reaches the objects a process maps from places
// with no file name, a memfd and a deleted file, through /proc/PID/map_files. The probes
// expected are the library's own notes as readelf -n prints them; the counts expected are the
// ones the sample reports.
#include <doctest/doctest.h>
#include <signal.h>

#include <set>
#include <sstream>

#include "tests/kernel/cli_run.h"

namespace rawprobe::cli_test {
namespace {

// "provider:name" of every stapsdt note of `path`, by readelf -n (the oracle).
std::set<std::string> readelf_probes(const std::string& path) {
  RunResult r = run({"readelf", "-n", path});
  std::set<std::string> out;
  std::istringstream in(r.out);
  std::string line, provider;
  while (std::getline(in, line)) {
    size_t p = line.find("Provider: ");
    if (p != std::string::npos) provider = line.substr(p + 10);
    size_t n = line.find("Name: ");
    if (n != std::string::npos && !provider.empty()) out.insert(provider + ":" + line.substr(n + 6));
  }
  return out;
}

// The word after `key ` in the sample's first line.
std::string field(const std::string& text, const std::string& key) {
  size_t at = text.find(key + " ");
  if (at == std::string::npos) return "";
  at += key.size() + 1;
  return text.substr(at, text.find_first_of(" \n", at) - at);
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("dynamic USDT: probes of a library mapped from a memfd and from a deleted file are listed and fire") {
  const std::string lib = sample("libusdt_lib.so");
  std::set<std::string> notes = readelf_probes(lib);
  REQUIRE_MESSAGE(!notes.empty(), "readelf -n found no stapsdt note in " << lib);
  const int rounds = 3;
  Process target({sample("dynamic_usdt"), lib, std::to_string(rounds)});
  REQUIRE(target.wait_for_output("\n", 20));
  const std::string first = target.so_far().out;
  const std::string pid = field(first, "pid"), memfd = field(first, "memfd"), deleted = field(first, "deleted");
  REQUIRE(!pid.empty());
  REQUIRE(!deleted.empty());

  // -l: each note once per nameless mapping, named the way /proc/PID/maps names the object.
  RunResult listed = run_rawprobe({"-p", pid, "-l", "usdt:*"});
  INFO(listed.out, listed.err);
  CHECK(listed.status == 0);
  for (const std::string& where : {memfd, deleted})
    for (const std::string& note : notes)
      CHECK_MESSAGE(listed.out.find("usdt:" + where + ":" + note + "\n") != std::string::npos,
                    "missing usdt:" << where << ":" << note);

  // Attached through the wildcard, each copy's probe fires as often as the sample says.
  TracedRun run = trace_running(
      target, "usdt:*:rawprobe_dyn:fire { @[arg0] = count(); @rounds[arg0, arg1] = 1; }", SIGUSR1);
  const RunResult &done = run.target, &traced = run.tracer;
  INFO(traced.out, traced.err);
  REQUIRE(done.status == 0);
  CHECK(traced.status == 0);
  std::string reported = "fired memfd " + std::to_string(rounds) + " deleted " + std::to_string(rounds);
  REQUIRE(done.out.find(reported) != std::string::npos);
  // tag 1 is the memfd copy, tag 2 the deleted one (dynamic_usdt.c).
  CHECK(traced.out.find("@[1]: " + std::to_string(rounds) + "\n") != std::string::npos);
  CHECK(traced.out.find("@[2]: " + std::to_string(rounds) + "\n") != std::string::npos);
  for (int tag = 1; tag <= 2; ++tag)
    for (int round = 0; round < rounds; ++round)
      CHECK(traced.out.find("@rounds[" + std::to_string(tag) + ", " + std::to_string(round) + "]: 1\n") !=
            std::string::npos);
}

TEST_SUITE_END();

}  // namespace rawprobe::cli_test
