// -p PID for a process in another mount namespace: processes in containers and other mount
// namespaces must be traceable as on the host. The target runs a copy of fun from a tmpfs
// mounted only inside its own namespace, so the path it runs from names nothing on the host.
// rawprobe must open the binary through /proc/PID/root, attach to the file the process really
// maps, and count exactly the calls fun reports; without -p the same path must be refused as
// missing.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cstdlib>
#include <regex>

#include "tests/kernel/cli_run.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// "@calls: 21" -> 21.
long count_printed(const std::string& out, const std::string& map) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(map + ": (\\d+)"))) return -1;
  return std::stol(m[1]);
}

}  // namespace

TEST_CASE("-p PID in a private mount namespace: uprobes on a binary only that process can see") {
  char dir_template[] = "/tmp/rawprobe-ctr-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string dir = dir_template, inside = dir + "/fun";
  // unshare(1) without --fork execs the shell in the same process, and the shell execs fun
  // when told to go: one pid throughout, the one handed to -p. The tmpfs and the copy exist
  // only in the new namespace; the host's directory stays empty.
  const std::string shell =
      "mount -t tmpfs rawprobe-ctr '" + dir + "' && cp '" + sample("fun") + "' '" + inside +
      "' && trap 'exec \"" + inside + "\" 7' USR1 && echo ready && while :; do sleep 0.05; done";
  Process target({"unshare", "--mount", "--propagation", "private", "sh", "-c", shell});
  REQUIRE_MESSAGE(target.wait_for_output("ready\n", 10), target.so_far().err);

  struct stat host_view;
  CHECK_MESSAGE(stat(inside.c_str(), &host_view) != 0, inside << " must not exist outside the namespace");
  // Without -p the path is resolved on the host, where there is nothing.
  RunResult host = run_rawprobe({"-e", "uprobe:" + inside + ":bar { @calls = count(); }"});
  CHECK(host.status == 1);
  CHECK(host.err.find(inside) != std::string::npos);
  CHECK(host.err.find("binary not found") != std::string::npos);

  TracedRun r = trace_running(target, "uprobe:" + inside + ":bar { @calls = count(); }", SIGUSR1);
  INFO("tracer:\n", r.tracer.out, r.tracer.err, "\ntarget:\n", r.target.err);
  CHECK(r.target.status == 0);
  CHECK(r.tracer.status == 0);
  long expected = sys::ktest::reported_calls(r.target.err, "bar");
  REQUIRE(expected > 0);
  CHECK(count_printed(r.tracer.out, "@calls") == expected);
  rmdir(dir.c_str());
}
