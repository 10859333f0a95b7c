// A detached mount (fsopen + fsconfig + fsmount, sys::DetachedMountCall), the way rawprobe
// reads debugfs files where nobody mounted debugfs: the files are the kernel's, the system's
// mount table does not change, and --trace-syscalls shows the call.
#include <doctest/doctest.h>

#include <algorithm>
#include <dirent.h>
#include <sstream>
#include <vector>

#include "engine/sys/call.h"
#include "engine/sys/decode.h"
#include "engine/sys/fd.h"
#include "engine/sys/host_root.h"
#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::sys;

namespace {

std::vector<std::string> sorted_entries(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) names.push_back(e->d_name);
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string mounts() {
  std::string text;
  read_text_file("/proc/self/mounts", text);
  return text;
}

}  // namespace

TEST_CASE("a detached debugfs mount shows debugfs's files and changes no mount table" *
          doctest::test_suite("host-only")) {
  std::string before = mounts();
  std::vector<std::string> traced;
  set_trace_sink([&](const std::string& line) { traced.push_back(line); });
  DetachedMountCall call{"debugfs"};
  Outcome out = invoke(call);
  set_trace_sink({});
  REQUIRE_MESSAGE(out.ok(), "fsmount(debugfs): errno ", out.err);
  Fd mount(static_cast<int>(out.ret));
  CHECK(mounts() == before);
  REQUIRE(traced.size() == 1);
  CHECK(traced[0] == describe_call(call, out));
  CHECK(traced[0].rfind("fsmount(fsopen(\"debugfs\", FSOPEN_CLOEXEC)", 0) == 0);

  // The oracle: the top directory of debugfs mounted the ordinary way, by mount(8), in a
  // namespace of its own (util-linux unshare: host-only; the guests check the kprobe blacklist
  // read this way, tests/vm/guest.d/kprobe-blacklist.sh).
  std::vector<std::string> detached = sorted_entries("/proc/self/fd/" + std::to_string(mount.get()));
  cli_test::RunResult listed = cli_test::run(
      {"unshare", "--mount", "--propagation", "private", "sh", "-c",
       "mkdir -p /tmp/rawprobe-debugfs-oracle && mount -t debugfs none /tmp/rawprobe-debugfs-oracle && "
       "ls -1a /tmp/rawprobe-debugfs-oracle"},
      30);
  REQUIRE_MESSAGE(listed.status == 0, listed.err);
  std::vector<std::string> expected;
  std::istringstream lines(listed.out);
  for (std::string line; std::getline(lines, line);) expected.push_back(line);
  std::sort(expected.begin(), expected.end());
  CHECK(expected.size() > 2);
  CHECK(detached == expected);
}
