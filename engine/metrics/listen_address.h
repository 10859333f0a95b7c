// --metrics ADDR: where the endpoint listens. Numeric addresses only, so a static binary never
// needs a resolver and a typo never binds somewhere unexpected:
//   127.0.0.1:9435    one IPv4 address (loopback keeps the endpoint private)
//   [::1]:9435        one IPv6 address
//   [::]:9435         every address, IPv6 and IPv4 (Linux's dual-stack default)
//   0.0.0.0:9435      every IPv4 address
// Port 0 takes a free port; the address actually bound is reported at start.
#pragma once
#include <sys/socket.h>

#include <string>
#include <string_view>

#include "engine/base/fd.h"
#include "engine/base/result.h"

namespace rawprobe::metrics {

struct ListenAddress {
  sockaddr_storage addr{};
  socklen_t len = 0;
  std::string text;  // as given
};

Result<ListenAddress> parse_listen_address(std::string_view text);

// A non-blocking listening TCP socket bound to `address`; a port in use or an address this
// host does not have is an Error saying so.
Result<Fd> listen_on(const ListenAddress& address);

// The address a socket is bound to, as "127.0.0.1:9435" or "[::1]:9435".
std::string bound_address(int fd);

}  // namespace rawprobe::metrics
