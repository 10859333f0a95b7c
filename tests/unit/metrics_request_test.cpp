// The metrics endpoint's request parser reads what one read() gives at a time: however a
// request is cut into pieces, the parse equals the parse of the whole (the libFuzzer target
// tests/fuzz/metrics_request_fuzz.cpp checks the same over any bytes; these are the real
// requests of the seeds, cut at every place and in pieces of every size).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/metrics/http_request.h"

using namespace rawprobe::metrics;

namespace {

// Requests as Prometheus 2.42, curl and a bare HTTP/1.0 client send them, and malformed ones.
const std::vector<std::string> kRequests{
    "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9435\r\nUser-Agent: Prometheus/2.42.0\r\nAccept: "
    "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
    "text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\nAccept-Encoding: gzip\r\nX-Prometheus-Scrape-Timeout-Seconds: 1\r\n\r\n",
    "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9435\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n",
    "POST /x?y HTTP/1.0\n\n",
    "GET /metrics HTTP/1.1\r\n folded\r\n\r\n",
    "\r\n\r\nGET / HTTP/1.1\r\nAccept: text/plain\r\nAccept: application/openmetrics-text\r\n\r\n",
};

std::string describe(const RequestParser& p) {
  return std::to_string(int(p.state())) + "|" + p.request().method + "|" + p.request().path + "|" +
         p.request().accept + "|" + p.reason();
}

}  // namespace

TEST_CASE("a request parses the same whole, cut at any place, and in pieces of any size") {
  for (const std::string& req : kRequests) {
    CAPTURE(req);
    RequestParser whole;
    whole.feed(req);
    REQUIRE(whole.state() != RequestState::Incomplete);
    std::string expected = describe(whole);
    for (size_t cut = 0; cut <= req.size(); cut++) {
      RequestParser two;
      two.feed(req.substr(0, cut));
      two.feed(req.substr(cut));
      CHECK_MESSAGE(describe(two) == expected, "cut at " << cut);
    }
    for (size_t piece = 1; piece <= 16; piece++) {
      RequestParser pieces;
      for (size_t at = 0; at < req.size(); at += piece) pieces.feed(req.substr(at, piece));
      CHECK_MESSAGE(describe(pieces) == expected, "pieces of " << piece);
    }
  }
}
