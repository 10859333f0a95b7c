#include "engine/metrics/http_request.h"

#include <cstdlib>
#include <vector>

namespace rawprobe::metrics {
namespace {

// RFC 9110 section 5.6.2: the characters of a method or header name.
bool is_tchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+': case '-':
    case '.': case '^': case '_': case '`': case '|': case '~': return true;
    default: return false;
  }
}

bool all_tchars(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_tchar(c)) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace

RequestState RequestParser::bad(std::string reason) {
  reason_ = std::move(reason);
  return state_ = RequestState::Bad;
}

RequestState RequestParser::feed(std::string_view bytes) {
  if (state_ != RequestState::Incomplete) return state_;
  // Leading empty lines before the request line are skipped (RFC 9112 section 2.2).
  while (head_.empty() && !bytes.empty() && (bytes.front() == '\r' || bytes.front() == '\n')) bytes.remove_prefix(1);
  size_t room = kMaxHeadBytes - head_.size();
  head_.append(bytes.substr(0, room));
  return parse_head();
}

RequestState RequestParser::parse_head() {
  // The head ends at the first empty line: "\n\r\n" or "\n\n".
  size_t end = std::string::npos;
  // A terminator split across reads ("...\r\n\r" then "\n") starts up to two bytes before
  // what the last call saw.
  for (size_t i = scanned_ >= 2 ? scanned_ - 2 : 0; i < head_.size(); i++) {
    if (head_[i] != '\n') continue;
    if (i + 1 < head_.size() && head_[i + 1] == '\n') {
      end = i + 1;
      break;
    }
    if (i + 2 < head_.size() && head_[i + 1] == '\r' && head_[i + 2] == '\n') {
      end = i + 2;
      break;
    }
  }
  scanned_ = head_.size();
  if (end == std::string::npos) {
    if (head_.size() >= kMaxHeadBytes) return state_ = RequestState::TooLarge;
    return RequestState::Incomplete;
  }
  std::string_view head(head_.data(), end);
  bool first = true;
  while (!head.empty()) {
    size_t nl = head.find('\n');
    std::string_view line = head.substr(0, nl);
    head.remove_prefix(nl == std::string_view::npos ? head.size() : nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    if (first ? !parse_request_line(line) : !parse_header(line)) return state_;
    first = false;
  }
  return state_ = RequestState::Complete;
}

bool RequestParser::parse_request_line(std::string_view line) {
  size_t sp1 = line.find(' ');
  size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) {
    bad("the request line is not METHOD TARGET HTTP/1.x");
    return false;
  }
  std::string_view method = line.substr(0, sp1), target = line.substr(sp1 + 1, sp2 - sp1 - 1),
                   version = line.substr(sp2 + 1);
  if (!all_tchars(method)) {
    bad("the method is not a token");
    return false;
  }
  if (target.empty() || target.front() != '/') {
    bad("the target is not an absolute path");
    return false;
  }
  for (char c : target)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) {
      bad("the target holds a control character");
      return false;
    }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") {
    bad("the version is not HTTP/1.0 or HTTP/1.1");
    return false;
  }
  request_.method = std::string(method);
  request_.path = std::string(target.substr(0, target.find('?')));
  return true;
}

bool RequestParser::parse_header(std::string_view line) {
  if (line.front() == ' ' || line.front() == '\t') {
    bad("a header line is folded (obsolete line folding)");
    return false;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || !all_tchars(line.substr(0, colon))) {
    bad("a header line is not NAME: VALUE");
    return false;
  }
  std::string_view value = trim(line.substr(colon + 1));
  for (char c : value)
    if ((static_cast<unsigned char>(c) < ' ' && c != '\t') || c == 0x7f) {
      bad("a header value holds a control character");
      return false;
    }
  if (iequals(line.substr(0, colon), "accept")) {
    if (!request_.accept.empty()) request_.accept += ',';
    request_.accept += value;
  }
  return true;
}

namespace {

// The q of one media range ("type/sub;version=1.0.0;q=0.5"): 1 when absent, -1 when it does not
// parse (a range with a bad q is ignored).
double quality(std::string_view params) {
  while (!params.empty()) {
    size_t semi = params.find(';');
    std::string_view p = trim(params.substr(0, semi));
    params.remove_prefix(semi == std::string_view::npos ? params.size() : semi + 1);
    if (p.size() >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
      std::string text(p.substr(2));
      char* end = nullptr;
      double q = std::strtod(text.c_str(), &end);
      if (text.empty() || *end || q < 0 || q > 1) return -1;
      return q;
    }
  }
  return 1;
}

}  // namespace

bool prefers_openmetrics(std::string_view accept) {
  double om = 0, text = 0;
  while (!accept.empty()) {
    size_t comma = accept.find(',');
    std::string_view range = accept.substr(0, comma);
    accept.remove_prefix(comma == std::string_view::npos ? accept.size() : comma + 1);
    size_t semi = range.find(';');
    std::string_view type = trim(range.substr(0, semi));
    double q = quality(semi == std::string_view::npos ? std::string_view{} : range.substr(semi + 1));
    if (iequals(type, "application/openmetrics-text")) om = std::max(om, q);
    else if (iequals(type, "text/plain")) text = std::max(text, q);
  }
  return om > 0 && om >= text;
}

}  // namespace rawprobe::metrics
