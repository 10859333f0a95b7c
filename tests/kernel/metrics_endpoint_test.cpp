// The endpoint as exposed to whoever reaches its port: answers by method, path and request
// shape; bounded connections and request time; a client that sends a byte a second delays
// neither events nor other scrapes; and bad or busy addresses stop the run before anything is
// attached or started.
#include <doctest/doctest.h>

#include <dirent.h>
#include <sys/stat.h>

#include <sstream>

#include "tests/kernel/metrics_support.h"

using namespace rawprobe::metrics_test;

namespace {

// Lines "tick" rawprobe has printed so far.
size_t ticks(const Process& p) { return lines_starting(p.so_far().out, "tick").size(); }

constexpr const char* kTicking = "interval:ms:100 { @ticks = count(); printf(\"tick\\n\"); }";

}  // namespace

TEST_SUITE_BEGIN("host-only");

TEST_CASE("the endpoint answers 200, 404, 405, 400 and 431 by what was asked") {
  Process rawprobe(joined({"--metrics", "127.0.0.1:0", "-e", kTicking}));
  int port = served_port(rawprobe);
  REQUIRE(port > 0);

  std::string prometheus = scrape(port);
  CHECK(status_of(prometheus) == 200);
  CHECK(prometheus.find("Content-Type: text/plain; version=0.0.4") != std::string::npos);
  CHECK(body_of(prometheus).find("# TYPE rawprobe_ticks_total counter\n") != std::string::npos);

  // Prometheus's own Accept header (2.42) prefers OpenMetrics.
  std::string om = scrape(port, "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
                                "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1");
  CHECK(status_of(om) == 200);
  CHECK(om.find("Content-Type: application/openmetrics-text; version=1.0.0") != std::string::npos);
  std::string om_body = body_of(om);
  CHECK(om_body.find("# TYPE rawprobe_ticks counter\n") != std::string::npos);
  CHECK(om_body.size() > 6);
  CHECK(om_body.compare(om_body.size() - 6, 6, "# EOF\n") == 0);
  // A text/plain preference wins over a lesser OpenMetrics one.
  CHECK(scrape(port, "application/openmetrics-text;q=0.2,text/plain;q=0.9").find("version=0.0.4") != std::string::npos);

  CHECK(status_of(http_exchange(port, "GET / HTTP/1.1\r\n\r\n")) == 404);
  CHECK(status_of(http_exchange(port, "GET /metricsx HTTP/1.0\r\n\r\n")) == 404);
  std::string post = http_exchange(port, "POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
  CHECK(status_of(post) == 405);
  CHECK(post.find("\r\nAllow: GET\r\n") != std::string::npos);
  CHECK(status_of(http_exchange(port, "GET /metrics?name=x HTTP/1.1\r\n\r\n")) == 200);
  for (const char* bad : {"GARBAGE\r\n\r\n", "GET /metrics HTTP/9.9\r\n\r\n", "GET metrics HTTP/1.1\r\n\r\n",
                          "GET /metrics HTTP/1.1\r\nNoColon\r\n\r\n", "GET /metrics HTTP/1.1\r\n folded\r\n\r\n"}) {
    CAPTURE(bad);
    CHECK(status_of(http_exchange(port, bad)) == 400);
  }
  CHECK(status_of(http_exchange(port, "GET /metrics HTTP/1.1\r\nX-Big: " + std::string(9000, 'a') + "\r\n\r\n")) == 431);

  rawprobe.signal(SIGINT);
  CHECK(rawprobe.finish(20).status == 0);
}

TEST_CASE("a client sending one byte a second delays neither events nor other scrapes, and times out") {
  Process rawprobe(joined({"--metrics", "127.0.0.1:0", "-e", kTicking}));
  int port = served_port(rawprobe);
  REQUIRE(port > 0);
  int slow = connect_to(port);
  REQUIRE(slow >= 0);
  std::string request = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  rawprobe.wait_for_output("tick\n", 5);
  size_t ticks_before = ticks(rawprobe);
  auto start = std::chrono::steady_clock::now();
  for (int second = 0; second < 4; second++) {
    REQUIRE(write(slow, &request[size_t(second)], 1) == 1);
    auto t0 = std::chrono::steady_clock::now();
    std::string other = scrape(port);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    CHECK(status_of(other) == 200);
    CHECK_MESSAGE(ms < 500, "a scrape took " << ms << " ms while the slow client was connected");
    rawprobe.wait_for_output("never printed", 1);  // reads output for a second
  }
  // Ten ticks a second: one stalled loop would print none while the slow client dribbles.
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(double(ticks(rawprobe) - ticks_before) >= seconds * 10 * 0.7);
  // The head did not arrive within 5 s of connecting: 408, and the connection is closed.
  std::string late = read_until_close(slow, 4000);
  close(slow);
  CHECK(status_of(late) == 408);

  rawprobe.signal(SIGINT);
  CHECK(rawprobe.finish(20).status == 0);
}

TEST_CASE("connections beyond the limit get 503 until others close") {
  Process rawprobe(joined({"--metrics", "127.0.0.1:0", "-e", kTicking}));
  int port = served_port(rawprobe);
  REQUIRE(port > 0);
  std::vector<int> idle;
  for (int i = 0; i < 16; i++) idle.push_back(connect_to(port));
  rawprobe.wait_for_output("never printed", 1);  // lets the loop accept them
  CHECK(status_of(scrape(port)) == 503);
  for (int fd : idle) close(fd);
  rawprobe.wait_for_output("never printed", 1);
  CHECK(status_of(scrape(port)) == 200);
  rawprobe.signal(SIGINT);
  CHECK(rawprobe.finish(20).status == 0);
}

TEST_CASE("a malformed --metrics address is a usage error naming it, before anything runs") {
  for (const char* addr : {"127.0.0.1", "localhost:9435", "127.0.0.1:70000", "::1:9435", "[::1]:port", ":9435",
                           "[nope]:9435"}) {
    CAPTURE(addr);
    RunResult r = run_rawprobe({"--metrics", addr, "-e", kTicking});
    CHECK(r.status == 2);
    CHECK(r.out == "");
    CHECK(r.err.find(std::string("--metrics ") + addr + ":") != std::string::npos);
  }
  RunResult prefix = run_rawprobe({"--metrics-prefix", "9lives", "-e", kTicking});
  CHECK(prefix.status == 2);
  CHECK(prefix.err.find("'9lives' is not a metric name") != std::string::npos);
}

TEST_CASE("a port in use stops the run before the command starts or a probe attaches") {
  int busy = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  REQUIRE(bind(busy, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  REQUIRE(listen(busy, 1) == 0);
  getsockname(busy, reinterpret_cast<sockaddr*>(&a), &len);
  std::string addr = "127.0.0.1:" + std::to_string(ntohs(a.sin_port));
  TempDir dir;
  std::string marker = dir.path + "/ran";
  RunResult r = run_rawprobe({"--metrics", addr, "-c", "touch " + marker, "-e", sized_script()});
  close(busy);
  CHECK(r.status == 1);
  CHECK(r.out == "");
  CHECK(r.err.find("listen for metrics '" + addr + "': bind: EADDRINUSE") != std::string::npos);
  struct stat st;
  CHECK(stat(marker.c_str(), &st) != 0);
}

TEST_SUITE_END();

TEST_SUITE_BEGIN("host-only");

TEST_CASE("--metrics '[::1]:0' serves over IPv6 loopback") {
  Process rawprobe(joined({"--metrics", "[::1]:0", "-e", kTicking}));
  REQUIRE(rawprobe.wait_for_output("/metrics\n", 30));
  const std::string& out = rawprobe.so_far().out;
  size_t at = out.find("serving metrics at http://[::1]:");
  REQUIRE_MESSAGE(at != std::string::npos, out);
  std::string url = out.substr(at + std::string("serving metrics at ").size());
  url = url.substr(0, url.find('\n'));
  RunResult curl = run({"curl", "-sg", url}, 20);
  CHECK(curl.status == 0);
  CHECK(curl.out.find("# TYPE rawprobe_ticks_total counter\n") != std::string::npos);
  rawprobe.signal(SIGINT);
  CHECK(rawprobe.finish(20).status == 0);
}

// Without -o, each batch of printed maps is one exposition on stdout, ended by "# EOF", and
// the text of printf goes on beside it.
TEST_CASE("-f openmetrics on stdout prints one whole exposition per print and at exit") {
  RunResult r = run_rawprobe({"-f", "openmetrics", "-e",
                              "interval:ms:50 { @ticks = count(); print(@ticks); printf(\"tick\\n\"); } "
                              "interval:ms:180 { exit(); }"});
  REQUIRE_MESSAGE(r.status == 0, r.err);
  size_t expositions = lines_starting(r.out, "# EOF").size();
  size_t ticks = lines_starting(r.out, "tick").size();
  CHECK(ticks >= 2);
  // One per print, and one more at exit.
  CHECK(expositions == ticks + 1);
  CHECK(lines_starting(r.out, "# TYPE rawprobe_ticks counter").size() == expositions);
  std::vector<std::string> totals = lines_starting(r.out, "rawprobe_ticks_total ");
  REQUIRE(totals.size() == expositions);
  CHECK(totals.back() == "rawprobe_ticks_total " + std::to_string(ticks));
}

TEST_SUITE_END();

namespace {

// User plus system CPU time of `pid`, in clock ticks (/proc/PID/stat fields 14 and 15).
long cpu_ticks(pid_t pid) {
  std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  std::istringstream rest(stat.substr(stat.rfind(')') + 2));
  std::string field;
  long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && rest >> field; i++) {
    if (i == 14) utime = std::atol(field.c_str());
    if (i == 15) stime = std::atol(field.c_str());
  }
  return utime + stime;
}

size_t open_fds(pid_t pid) {
  size_t n = 0;
  DIR* d = opendir(("/proc/" + std::to_string(pid) + "/fd").c_str());
  while (d && readdir(d)) n++;
  if (d) closedir(d);
  return n > 2 ? n - 2 : 0;  // less . and ..
}

}  // namespace

TEST_SUITE_BEGIN("host-only");

// Out of fds, accept() fails while the connection stays queued and the listener readable: a
// loop that kept watching it would spin. It must rest instead, and serve again once fds free.
TEST_CASE("a rawprobe out of file descriptors neither spins nor stops serving") {
  size_t fds = 0;
  {
    Process probe(joined({"--metrics", "127.0.0.1:0", "-e", kTicking}));
    REQUIRE(served_port(probe) > 0);
    REQUIRE(probe.wait_for_output("tick\n", 10));
    fds = open_fds(probe.pid());
    probe.signal(SIGINT);
    probe.finish(20);
  }
  REQUIRE(fds > 3);
  // Room for two connections; prlimit execs the shell, which execs rawprobe: one pid.
  std::vector<std::string> argv = joined({"--metrics", "127.0.0.1:0", "-e", kTicking});
  argv.insert(argv.begin(), {"prlimit", "--nofile=" + std::to_string(fds + 2)});
  Process rawprobe(argv);
  int port = served_port(rawprobe);
  REQUIRE_MESSAGE(port > 0, rawprobe.so_far().out);
  std::vector<int> idle;
  for (int i = 0; i < 6; i++) idle.push_back(connect_to(port));
  rawprobe.wait_for_output("never printed", 1);
  long before = cpu_ticks(rawprobe.pid());
  rawprobe.wait_for_output("never printed", 2);
  long spent = cpu_ticks(rawprobe.pid()) - before;
  CHECK_MESSAGE(spent <= 5, "rawprobe used " << spent << " clock ticks in 2 s while out of fds");
  for (int fd : idle) close(fd);
  CHECK(wait_until([&] { return status_of(scrape(port)) == 200; }, 10));
  rawprobe.signal(SIGINT);
  CHECK(rawprobe.finish(20).status == 0);
}

TEST_SUITE_END();
