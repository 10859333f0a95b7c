// The one thing the metrics endpoint reads from a client: an HTTP/1.x request head (request
// line and headers, up to the blank line), fed in whatever pieces the socket delivers.
//
//   GET /metrics?x=1 HTTP/1.1\r\n          method, target (the query is dropped), version
//   Accept: application/openmetrics-text;version=1.0.0,text/plain;q=0.5\r\n
//   \r\n
//
// The head is bounded (kMaxHeadBytes); a body is never read (the endpoint answers and closes).
// Lines may end in "\n" alone (RFC 9112 section 2.2 lets a server accept that). Anything
// else that is not this grammar makes the request Bad with a reason, never a crash: the bytes
// come from whoever reaches the port (tests/fuzz/metrics_request_fuzz.cpp).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace rawprobe::metrics {

inline constexpr size_t kMaxHeadBytes = 8192;

enum class RequestState { Incomplete, Complete, Bad, TooLarge };

struct HttpRequest {
  std::string method;   // "GET"
  std::string path;     // "/metrics", without the query
  std::string accept;   // the Accept header's value(s), joined by ','; empty when absent
};

class RequestParser {
 public:
  // Takes more bytes; returns the state after them. Bytes after a complete head are ignored.
  RequestState feed(std::string_view bytes);
  RequestState state() const { return state_; }
  const HttpRequest& request() const { return request_; }
  // Why the request is Bad (for the 400 body).
  const std::string& reason() const { return reason_; }

 private:
  RequestState parse_head();
  bool parse_request_line(std::string_view line);
  bool parse_header(std::string_view line);
  RequestState bad(std::string reason);

  std::string head_;
  size_t scanned_ = 0;
  RequestState state_ = RequestState::Incomplete;
  HttpRequest request_;
  std::string reason_;
};

// Whether an Accept value prefers OpenMetrics text to the Prometheus text format: its q for
// application/openmetrics-text is above zero and not below the q of text/plain (a missing q is 1).
bool prefers_openmetrics(std::string_view accept);

}  // namespace rawprobe::metrics
