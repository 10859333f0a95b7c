// Soak: a high event rate for a bounded time (uprobe + printf + maps, one event a call, as
// fast as the workload calls). rawprobe's resident memory stays flat, and every call is
// accounted for: the map's count equals the calls the workload reports, and so do the
// printed records plus the losses rawprobe reports.
// RAWPROBE_SOAK_SECONDS sets the duration (default 20; CI runs 120). RAWPROBE_SOAK_NICE runs
// the tracer and its workload at that nice value: beside the VM guests (tests/run-suites) the
// soak's two busy processes would otherwise take both cores from them for its whole length.
// A record is two bytes ("7\n", the call's number modulo 10), so the millions the test reads
// back stay tens of megabytes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>

#include "tests/kernel/cli_run.h"
#include "tests/kernel/printed_count.h"

using namespace rawprobe;
using namespace rawprobe::cli_test;

namespace {

// VmRSS of `pid` in KiB, -1 once it is gone.
long rss_kib(pid_t pid) {
  std::smatch m;
  std::string status = read_file("/proc/" + std::to_string(pid) + "/status");
  return std::regex_search(status, m, std::regex("\nVmRSS:\\s*([0-9]+) kB")) ? std::stol(m[1]) : -1;
}

long soak_seconds() {
  const char* env = std::getenv("RAWPROBE_SOAK_SECONDS");
  long s = env ? std::atol(env) : 20;
  return s > 0 ? s : 20;
}

// Lines of one digit (the records), wherever the workload's stderr lands between them.
long records(const std::string& out) {
  long n = 0;
  for (size_t at = 0; (at = out.find('\n', at)) != std::string::npos; ++at)
    if (at >= 1 && std::isdigit(static_cast<unsigned char>(out[at - 1])) && (at == 1 || out[at - 2] == '\n')) ++n;
  return n;
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("Soak: a high event rate keeps RSS flat and accounts for every call") {
  long seconds = soak_seconds();
  std::string soak = sample("soak_calls");
  std::vector<std::string> argv = {rawprobe_path(), "-c", soak + " " + std::to_string(seconds), "-e",
                                   "uprobe:" + soak + ":soaked { @calls = count(); @by[arg0 % 1024] = count(); printf(\"%d\\n\", arg0 % 10); }"};
  if (const char* nice = std::getenv("RAWPROBE_SOAK_NICE")) argv.insert(argv.begin(), {"nice", "-n", nice});
  Process tracer(argv);
  REQUIRE_MESSAGE(tracer.wait_for_output("Attaching 1 probe...\n", 30), tracer.so_far().err);
  // One sample a second while the output is read; the first once the run has settled (its
  // maps, buffers and symbol tables made, 2 s in), the peak over the rest.
  std::vector<long> rss;
  for (long s = 0; s < seconds + 30; ++s) {
    tracer.wait_for_output("\x01", 1);  // reads the output for a second (no record holds \x01)
    long kib = rss_kib(tracer.pid());
    if (kib < 0 || tracer.so_far().err.find("soak_calls: calls=") != std::string::npos) break;
    rss.push_back(kib);
  }
  RunResult r = tracer.finish(60);
  REQUIRE_MESSAGE(r.status == 0, r.err);
  REQUIRE(rss.size() >= 4);
  long settled = rss[2], peak = *std::max_element(rss.begin() + 2, rss.end()), last = rss.back();
  std::smatch m;
  REQUIRE(std::regex_search(r.err, m, std::regex("soak_calls: calls=([0-9]+)\n")));
  long calls = std::stol(m[1]);
  long printed = records(r.out), lost = reported_losses(r.out);
  MESSAGE("soak " << seconds << " s: " << calls << " calls, " << printed << " printed, " << lost
                  << " lost; VmRSS " << rss[0] << " kB at 0 s, " << settled << " kB at 2 s, peak " << peak
                  << " kB, " << last << " kB at the end (" << rss.size() << " samples)");
  CHECK(r.out.find("\n@calls: " + std::to_string(calls) + "\n") != std::string::npos);
  CHECK(printed + lost == calls);
  CHECK(calls > 100000 * seconds / 10);  // a high rate: at least 10,000 calls a second
  // Flat: the peak after settling is within 4 MiB of the settled size, however long the run.
  CHECK_MESSAGE(peak - settled <= 4096, "grew from " << settled << " to " << peak << " kB");
}

TEST_SUITE_END();
