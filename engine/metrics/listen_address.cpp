#include "engine/metrics/listen_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cstring>

namespace rawprobe::metrics {
namespace {

Error address_error(std::string_view text, std::string what) {
  return make_error("--metrics " + std::string(text) + ": " + std::move(what), {},
                    "give a numeric address and a port, e.g. --metrics 127.0.0.1:9435 or --metrics '[::1]:9435'");
}

}  // namespace

Result<ListenAddress> parse_listen_address(std::string_view text) {
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return address_error(text, "no port (ADDR is HOST:PORT)");
  std::string host(text.substr(0, colon));
  std::string_view port_text = text.substr(colon + 1);
  if (port_text.empty() || port_text.size() > 5 || port_text.find_first_not_of("0123456789") != std::string_view::npos)
    return address_error(text, "the port '" + std::string(port_text) + "' is not a number");
  unsigned long port = std::stoul(std::string(port_text));
  if (port > 65535) return address_error(text, "the port " + std::to_string(port) + " is above 65535");
  ListenAddress a;
  a.text = text;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&a.addr);
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(uint16_t(port));
    if (inet_pton(AF_INET6, host.substr(1, host.size() - 2).c_str(), &v6->sin6_addr) != 1)
      return address_error(text, "'" + host + "' is not an IPv6 address");
    a.len = sizeof(sockaddr_in6);
    return a;
  }
  if (host.empty()) return address_error(text, "no host: say which address to listen on (127.0.0.1 keeps it private)");
  auto* v4 = reinterpret_cast<sockaddr_in*>(&a.addr);
  v4->sin_family = AF_INET;
  v4->sin_port = htons(uint16_t(port));
  if (inet_pton(AF_INET, host.c_str(), &v4->sin_addr) != 1) {
    if (host.find(':') != std::string::npos)
      return address_error(text, "an IPv6 address must be in brackets, as in [" + host + "]:" + std::string(port_text));
    return address_error(text, "'" + host + "' is not a numeric IPv4 address (host names are not resolved)");
  }
  a.len = sizeof(sockaddr_in);
  return a;
}

Result<Fd> listen_on(const ListenAddress& address) {
  Fd fd(socket(address.addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) return syscall_error("listen for metrics", "socket", errno, address.text);
  // A restarted rawprobe can take its port back while the old connections sit in TIME_WAIT.
  int one = 1;
  setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd.get(), reinterpret_cast<const sockaddr*>(&address.addr), address.len) != 0) {
    int err = errno;
    std::string hint;
    if (err == EADDRINUSE) hint = "another process listens on that port (ss -ltnp shows which); pick another port";
    else if (err == EADDRNOTAVAIL) hint = "this host has no such address; use 127.0.0.1, [::1], or one of `ip addr`";
    else if (err == EACCES) hint = "ports below 1024 need root or CAP_NET_BIND_SERVICE";
    return syscall_error("listen for metrics", "bind", err, address.text, hint);
  }
  if (listen(fd.get(), 64) != 0) return syscall_error("listen for metrics", "listen", errno, address.text);
  return fd;
}

std::string bound_address(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return "?";
  char text[INET6_ADDRSTRLEN] = {};
  if (ss.ss_family == AF_INET6) {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&ss);
    inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    return "[" + std::string(text) + "]:" + std::to_string(ntohs(v6->sin6_port));
  }
  auto* v4 = reinterpret_cast<sockaddr_in*>(&ss);
  inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
  return std::string(text) + ":" + std::to_string(ntohs(v4->sin_port));
}

}  // namespace rawprobe::metrics
