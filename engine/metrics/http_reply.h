// What the endpoint answers to a request head (http_request.h), as the bytes to send. Every
// answer closes the connection (Connection: close): a scrape is one request, and a server that
// never keeps a connection idle has nothing to time out between requests.
//   GET /metrics             200, the exposition in the format the Accept header prefers
//   another method there     405, Allow: GET
//   another path             404
//   a malformed head         400, saying what was wrong
//   a head over 8 KiB        431
#pragma once
#include <functional>
#include <string>

#include "engine/metrics/exposition.h"
#include "engine/metrics/http_request.h"

namespace rawprobe::metrics {

// Renders the exposition at request time.
using RenderExposition = std::function<std::string(ExpositionFormat)>;

// A response as its head (status line and headers) and its body, kept apart so a large
// exposition is sent as rendered rather than copied behind the head.
struct Reply {
  std::string head, body;
  std::string text() const { return head + body; }
};

// The response for the request `parser` holds (Complete, Bad or TooLarge).
Reply http_reply(const RequestParser& parser, const RenderExposition& render);

// A response with a plain-text body: status 408, 503, ...
Reply plain_reply(int status, const std::string& body);

}  // namespace rawprobe::metrics
