// samples/drop_caps stands in for setpriv in the VM guests, which have none: the capability
// sets it leaves a command with must be the ones setpriv(1) leaves, read back from the
// kernel (/proc/self/status of the exec'd command).
#include <doctest/doctest.h>

#include <linux/capability.h>
#include <unistd.h>

#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// The Cap* lines (and Uid/Gid) the command sees, as the kernel reports them.
std::string sets_of(std::vector<std::string> prefix) {
  prefix.insert(prefix.end(), {"grep", "-E", "^(Cap|Uid|Gid|Groups)", "/proc/self/status"});
  RunResult r = run(prefix);
  INFO(r.err);
  CHECK(r.status == 0);
  return r.out;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("drop_caps leaves a command the capability sets setpriv leaves it") {
  if (geteuid() != 0) return;
  std::string dropper = sample("drop_caps");
  REQUIRE_MESSAGE(access(dropper.c_str(), X_OK) == 0, dropper << " missing: make samples");
  // As uid 65534 keeping a few (ambient carries them across the exec), and keeping none.
  for (std::string caps : {"bpf,perfmon", "sys_admin,dac_override", ""}) {
    CAPTURE(caps);
    std::string set = "-all";
    for (size_t at = 0; at < caps.size();) {
      size_t comma = caps.find(',', at);
      set += ",+" + caps.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      at = comma == std::string::npos ? caps.size() : comma + 1;
    }
    std::string ours = sets_of({dropper, "-u", "65534", "-k", caps});
    std::string theirs = sets_of({"setpriv", "--bounding-set=" + set, "--inh-caps=" + set, "--ambient-caps=" + set,
                                  "--reuid=65534", "--regid=65534", "--clear-groups", "--"});
    CHECK(ours.find("CapEff:") != std::string::npos);
    CHECK(ours == theirs);
  }
  // As root, dropping two: cleared in every set of the command (the header's bit numbers),
  // the rest as root's own command gets them.
  std::string full = sets_of({});
  std::string ours = sets_of({dropper, "cap_bpf,SYS_ADMIN"});
  uint64_t dropped = (1ull << CAP_BPF) | (1ull << CAP_SYS_ADMIN);
  for (const char* set : {"CapEff", "CapPrm", "CapBnd"}) {
    CAPTURE(set);
    std::smatch before, after;
    std::regex line(std::string(set) + ":\\s*([0-9a-f]+)");
    REQUIRE(std::regex_search(full, before, line));
    REQUIRE(std::regex_search(ours, after, line));
    uint64_t was = std::stoull(before[1], nullptr, 16), now = std::stoull(after[1], nullptr, 16);
    CHECK((was & dropped) == dropped);
    CHECK(now == (was & ~dropped));
  }
  // A name it does not know is refused, nothing run.
  RunResult bad = run({dropper, "cap_nonsense", "true"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("unknown capability 'cap_nonsense'") != std::string::npos);
}

TEST_SUITE_END();
