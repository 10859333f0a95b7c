// libFuzzer target: any bytes a client can send to --metrics, through the request parser and
// the reply. Beyond not crashing, two properties must hold: the parse does not depend on how
// the bytes were split across reads (the first input byte picks a split), and every finished
// parse gets a whole HTTP/1.1 response.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/metrics/http_reply.h"
#include "engine/metrics/http_request.h"

using namespace rawprobe::metrics;

namespace {

RequestParser parse_in_pieces(std::string_view bytes, size_t piece) {
  RequestParser p;
  for (size_t at = 0; at < bytes.size() && p.state() == RequestState::Incomplete; at += piece)
    p.feed(bytes.substr(at, piece));
  return p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t piece = size_t(data[0] % 16) + 1;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  RequestParser whole;
  whole.feed(bytes);
  RequestParser pieces = parse_in_pieces(bytes, piece);
  if (whole.state() != pieces.state()) __builtin_trap();
  if (whole.state() == RequestState::Complete &&
      (whole.request().method != pieces.request().method || whole.request().path != pieces.request().path ||
       whole.request().accept != pieces.request().accept))
    __builtin_trap();
  (void)prefers_openmetrics(bytes);
  if (whole.state() != RequestState::Incomplete) {
    std::string reply = http_reply(whole, [](ExpositionFormat) { return std::string("x 1\n"); }).text();
    if (reply.rfind("HTTP/1.1 ", 0) != 0 || reply.find("\r\n\r\n") == std::string::npos) __builtin_trap();
  }
  return 0;
}
