#include "engine/metrics/http_reply.h"

namespace rawprobe::metrics {
namespace {

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
  }
  return "Error";
}

Reply reply(int status, const char* type, std::string body, const char* extra_header = "") {
  Reply r;
  r.head = "HTTP/1.1 " + std::to_string(status) + " " + reason_phrase(status) + "\r\n";
  r.head += "Content-Type: ";
  r.head += type;
  r.head += "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  r.head += extra_header;
  r.head += "Connection: close\r\n\r\n";
  r.body = std::move(body);
  return r;
}

}  // namespace

Reply plain_reply(int status, const std::string& body) {
  return reply(status, "text/plain; charset=utf-8", body + "\n");
}

Reply http_reply(const RequestParser& parser, const RenderExposition& render) {
  switch (parser.state()) {
    case RequestState::Incomplete: return plain_reply(400, "incomplete request");
    case RequestState::TooLarge: return plain_reply(431, "the request head is over " + std::to_string(kMaxHeadBytes) + " bytes");
    case RequestState::Bad: return plain_reply(400, "bad request: " + parser.reason());
    case RequestState::Complete: break;
  }
  const HttpRequest& req = parser.request();
  if (req.path != "/metrics") return plain_reply(404, "not found: the metrics are at /metrics");
  if (req.method != "GET") return reply(405, "text/plain; charset=utf-8", "only GET /metrics is served\n", "Allow: GET\r\n");
  ExpositionFormat format = prefers_openmetrics(req.accept) ? ExpositionFormat::OpenMetrics : ExpositionFormat::Prometheus;
  return reply(200, content_type(format), render(format));
}

}  // namespace rawprobe::metrics
