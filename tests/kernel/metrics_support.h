// Pieces the metrics tests share: a free loopback port, a raw HTTP exchange (so a test controls
// every byte a client sends), rawprobe started with --metrics and its bound address read back,
// the known workload (samples/sized_calls.c) and what a histogram of its sizes must hold.
#pragma once
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "tests/kernel/cli_run.h"

namespace rawprobe::metrics_test {

using namespace cli_test;

// A port nothing listens on now (the kernel picks it for a socket that is then closed).
inline int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

// A TCP connection to 127.0.0.1:port (-1 when refused).
inline int connect_to(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Everything the peer sends until it closes, or until `ms` pass.
inline std::string read_until_close(int fd, int ms) {
  std::string text;
  auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  char buf[65536];
  while (std::chrono::steady_clock::now() < end) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) <= 0) continue;
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, size_t(n));
  }
  return text;
}

// Sends `request` whole and returns the whole response ("" when the connection failed).
inline std::string http_exchange(int port, const std::string& request, int ms = 10000) {
  int fd = connect_to(port);
  if (fd < 0) return "";
  (void)!write(fd, request.data(), request.size());
  std::string response = read_until_close(fd, ms);
  close(fd);
  return response;
}

inline int status_of(const std::string& response) {
  return response.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(response.c_str() + 9) : -1;
}
inline std::string body_of(const std::string& response) {
  size_t at = response.find("\r\n\r\n");
  return at == std::string::npos ? "" : response.substr(at + 4);
}
inline std::string scrape(int port, const std::string& accept = "") {
  std::string req = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  if (!accept.empty()) req += "Accept: " + accept + "\r\n";
  return http_exchange(port, req + "\r\n");
}

// rawprobe ARGS with stderr joined to stdout (the "serving metrics at" line and the sample's
// report arrive in order on one stream).
inline std::vector<std::string> joined(std::vector<std::string> args) {
  std::vector<std::string> argv{"sh", "-c", "exec \"$0\" \"$@\" 2>&1", rawprobe_path()};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

// The port of "rawprobe: serving metrics at http://127.0.0.1:PORT/metrics", or -1.
inline int served_port(Process& p) {
  if (!p.wait_for_output("/metrics\n", 30)) return -1;
  const std::string& out = p.so_far().out;
  size_t at = out.find("serving metrics at http://127.0.0.1:");
  if (at == std::string::npos) return -1;
  return std::atoi(out.c_str() + at + std::string("serving metrics at http://127.0.0.1:").size());
}

// The workload: these sizes, each passed once to record_size().
inline const std::vector<long> kSizes{0, 1, 2, 3, 7, 8, 100, 1000, 4096, 65535, 65536, 123456};

inline std::string sizes_args() {
  std::string s;
  for (long v : kSizes) s += " " + std::to_string(v);
  return s;
}
inline std::string sized_calls() { return sample("sized_calls"); }
// The script the tests serve: a count keyed by comm, and a hist of the sizes.
inline std::string sized_script() {
  return "uprobe:" + sized_calls() + ":record_size { @calls[comm] = count(); @sizes = hist(arg0); }";
}
// calls=N from the sample's own report, or -1.
inline long reported_calls(const std::string& out) {
  size_t at = out.find("sized_calls: calls=");
  return at == std::string::npos ? -1 : std::atol(out.c_str() + at + 19);
}
inline long sizes_total() {
  long n = 0;
  for (long v : kSizes) n += v;
  return n;
}
// How many sizes a bucket with upper bound `le` holds (cumulative).
inline long sizes_at_most(double le) {
  long n = 0;
  for (long v : kSizes) n += double(v) <= le;
  return n;
}

// Exposition lines NAME{...} VALUE whose name is `name`: labels text -> value.
inline std::map<std::string, std::string> samples_named(const std::string& text, const std::string& name) {
  std::map<std::string, std::string> out;
  for (const std::string& line : lines_starting(text, name)) {
    size_t sp = line.rfind(' ');
    std::string head = line.substr(0, sp);
    if (head != name && head.rfind(name + "{", 0) != 0) continue;
    out[head.substr(name.size())] = line.substr(sp + 1);
  }
  return out;
}

// The value of label `label` in a labels text {a="x",le="7"} ("" when absent).
inline std::string label_value(const std::string& labels, const std::string& label) {
  size_t at = labels.find(label + "=\"");
  if (at == std::string::npos) return "";
  at += label.size() + 2;
  return labels.substr(at, labels.find('"', at) - at);
}

inline bool wait_until(const std::function<bool()>& done, int seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!done()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return true;
}

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/rawprobe-metrics-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf " + path).c_str()); }
};

}  // namespace rawprobe::metrics_test
