// `make install`'s systemd template unit, as installed: systemd-analyze accepts it (its syntax
// and that ExecStart names an executable), and its ExecStart line, with the instance and the
// environment systemd would give it, runs a script from /etc/rawprobe-like paths that serves
// metrics. systemd itself does not run on the test machine, so the unit is not started by it.
#include <doctest/doctest.h>

#include <fstream>

#include "tests/kernel/metrics_support.h"
#include "tests/skip.h"

using namespace rawprobe::metrics_test;

namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("the installed rawprobe@.service verifies, and its ExecStart serves the instance's script") {
  TempDir dir;
  std::string prefix = dir.path + "/usr";
  REQUIRE(run({"mkdir", "-p", prefix + "/bin"}).status == 0);
  REQUIRE(symlink(rawprobe_path().c_str(), (prefix + "/bin/rawprobe").c_str()) == 0);
  RunResult installed = run({"make", "-s", "-C", source_root(), "install-systemd-unit", "PREFIX=" + prefix});
  REQUIRE_MESSAGE(installed.status == 0, installed.out << installed.err);
  std::string unit_path = prefix + "/lib/systemd/system/rawprobe@.service";
  std::string unit = read_file(unit_path);
  REQUIRE(!unit.empty());

  if (run({"sh", "-c", "command -v systemd-analyze"}).status == 0) {
    RunResult verify = run({"systemd-analyze", "verify", unit_path});
    CHECK_MESSAGE(verify.status == 0, verify.out << verify.err);
    CHECK_MESSAGE(verify.err.find("rawprobe") == std::string::npos, verify.err);
  } else {
    RAWPROBE_SKIP("systemd-analyze is missing: the unit's syntax is not checked");
  }

  std::vector<std::string> exec = lines_starting(unit, "ExecStart=");
  REQUIRE(exec.size() == 1);
  // What systemd runs for rawprobe@web with RAWPROBE_METRICS from web.env: %i is the instance,
  // ${VAR} one word, $VAR split into words (empty here: none).
  std::string script = dir.path + "/web.bt";
  std::ofstream(script) << "interval:ms:100 { @ticks = count(); }\n";
  std::string command = exec[0].substr(std::string("ExecStart=").size());
  command = replace_all(command, "/etc/rawprobe/%i.bt", script);
  command = replace_all(command, "${RAWPROBE_METRICS}", "127.0.0.1:0");
  command = replace_all(command, " $RAWPROBE_ARGS", "");
  CHECK(command.find('%') == std::string::npos);
  CHECK(command.find('$') == std::string::npos);
  std::vector<std::string> argv{"sh", "-c", "exec " + command + " 2>&1"};
  Process service(argv);
  int port = served_port(service);
  REQUIRE_MESSAGE(port > 0, service.so_far().out);
  REQUIRE(wait_until([&] { return samples_named(body_of(scrape(port)), "rawprobe_ticks_total").count(""); }, 10));
  service.signal(SIGTERM);
  CHECK(service.finish(20).status == 0);
}

TEST_SUITE_END();
