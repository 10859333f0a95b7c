#include "engine/metrics/metrics_server.h"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>

namespace rawprobe::metrics {

Result<std::unique_ptr<MetricsServer>> MetricsServer::open(const ListenAddress& address, ServerLimits limits) {
  Result<Fd> listener = listen_on(address);
  if (!listener) return listener.error();
  std::unique_ptr<MetricsServer> s(new MetricsServer());
  s->limits_ = limits;
  s->listener_ = std::move(*listener);
  s->epoll_ = Fd(epoll_create1(EPOLL_CLOEXEC));
  if (!s->epoll_) return syscall_error("serve metrics", "epoll_create1", errno);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;  // null: the listener; otherwise the Connection
  if (epoll_ctl(s->epoll_.get(), EPOLL_CTL_ADD, s->listener_.get(), &ev) != 0)
    return syscall_error("serve metrics", "epoll_ctl", errno);
  return s;
}

MetricsServer::~MetricsServer() = default;

void MetricsServer::watch(Connection& c, uint32_t events, int op) {
  epoll_event ev{};
  ev.events = events;
  ev.data.ptr = &c;
  epoll_ctl(epoll_.get(), op, c.fd.get(), &ev);
}

void MetricsServer::accept_all() {
  for (;;) {
    int fd = accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE) pause_listener();
      return;  // EAGAIN: none left; ECONNABORTED and the like: the next one is tried next time
    }
    auto c = std::make_unique<Connection>();
    c->fd = Fd(fd);
    c->deadline = Clock::now() + limits_.request_time;
    if (connections_.size() >= limits_.max_connections) {
      // Into an empty socket buffer a short answer always fits; if not, it is simply lost. What
      // the client already sent is read first: closing with unread input sends a reset, which
      // can destroy the answer before the client reads it.
      char discard[4096];
      (void)!::recv(fd, discard, sizeof discard, MSG_DONTWAIT);
      std::string busy = plain_reply(503, "too many connections; try again").text();
      (void)!::send(fd, busy.data(), busy.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      shutdown(fd, SHUT_WR);
      continue;
    }
    watch(*c, EPOLLIN | EPOLLRDHUP, EPOLL_CTL_ADD);
    connections_.push_back(std::move(c));
  }
}

void MetricsServer::start_reply(Connection& c, Reply reply) {
  c.phase = Phase::Writing;
  c.reply = std::move(reply);
  c.sent = 0;
  c.deadline = Clock::now() + limits_.reply_time;
  watch(c, EPOLLOUT | EPOLLRDHUP, EPOLL_CTL_MOD);
}

bool MetricsServer::read_request(Connection& c) {
  char buf[4096];
  for (;;) {
    ssize_t n = ::recv(c.fd.get(), buf, sizeof buf, 0);
    if (n == 0) return false;  // closed before asking anything
    if (n < 0) return errno == EAGAIN || errno == EINTR;
    if (c.phase != Phase::Reading) continue;  // after the reply: drained so the close is not a reset
    if (c.parser.feed(std::string_view(buf, size_t(n))) != RequestState::Incomplete) {
      start_reply(c, http_reply(c.parser, render_));
      return write_reply(c);
    }
  }
}

bool MetricsServer::write_reply(Connection& c) {
  const std::string &head = c.reply.head, &body = c.reply.body;
  while (c.sent < head.size() + body.size()) {
    // Head and body in one call: what remains of each.
    iovec parts[2];
    int count = 0;
    if (c.sent < head.size()) parts[count++] = {const_cast<char*>(head.data()) + c.sent, head.size() - c.sent};
    size_t in_body = c.sent > head.size() ? c.sent - head.size() : 0;
    if (in_body < body.size()) parts[count++] = {const_cast<char*>(body.data()) + in_body, body.size() - in_body};
    msghdr msg{};
    msg.msg_iov = parts;
    msg.msg_iovlen = size_t(count);
    ssize_t n = ::sendmsg(c.fd.get(), &msg, MSG_NOSIGNAL);
    if (n < 0) return errno == EAGAIN || errno == EINTR;
    c.sent += size_t(n);
  }
  // All sent: half-close and wait (within the deadline) for the client's close, reading what
  // it still sends; closing at once with unread input would reset the connection, and a reset
  // can destroy the answer before the client has read it.
  c.phase = Phase::Closing;
  c.deadline = Clock::now() + std::chrono::seconds(1);
  c.reply = Reply();
  shutdown(c.fd.get(), SHUT_WR);
  watch(c, EPOLLIN | EPOLLRDHUP, EPOLL_CTL_MOD);
  return true;
}

bool MetricsServer::on_ready(Connection& c, uint32_t events) {
  if (events & EPOLLERR) return false;
  switch (c.phase) {
    case Phase::Reading:
      if (!read_request(c)) return false;
      // A client that half-closed after a whole request still gets its answer.
      return c.phase != Phase::Reading || !(events & (EPOLLRDHUP | EPOLLHUP));
    case Phase::Writing: return !(events & EPOLLHUP) && write_reply(c);
    case Phase::Closing: return read_request(c);
  }
  return false;
}

void MetricsServer::pause_listener() {
  if (listener_paused_) return;
  epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, listener_.get(), nullptr);
  listener_paused_ = true;
  resume_at_ = Clock::now() + std::chrono::seconds(1);
}

void MetricsServer::resume_listener() {
  if (!listener_paused_ || Clock::now() < resume_at_) return;
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = nullptr;
  if (epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, listener_.get(), &ev) == 0) listener_paused_ = false;
}

void MetricsServer::close_connection(size_t index) {
  epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, connections_[index]->fd.get(), nullptr);
  connections_.erase(connections_.begin() + long(index));
}

void MetricsServer::expire() {
  auto now = Clock::now();
  for (size_t i = connections_.size(); i-- > 0;) {
    Connection& c = *connections_[i];
    if (now < c.deadline) continue;
    if (c.phase == Phase::Reading) {
      // The head did not arrive in time: say so, once, and close.
      std::string late = plain_reply(408, "the request did not arrive in time").text();
      (void)!::send(c.fd.get(), late.data(), late.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    close_connection(i);
  }
}

void MetricsServer::serve() {
  resume_listener();
  epoll_event ready[32];
  for (;;) {
    int n = epoll_wait(epoll_.get(), ready, 32, 0);
    if (n <= 0) break;
    for (int i = 0; i < n; i++) {
      if (!ready[i].events) continue;  // its connection was closed earlier in this batch
      if (!ready[i].data.ptr) {
        accept_all();
        continue;
      }
      auto* c = static_cast<Connection*>(ready[i].data.ptr);
      if (on_ready(*c, ready[i].events)) continue;
      for (size_t k = 0; k < connections_.size(); k++)
        if (connections_[k].get() == c) {
          close_connection(k);
          break;
        }
      // Later entries of this batch may name the closed connection: collect them anew.
      for (int j = i + 1; j < n; j++)
        if (ready[j].data.ptr == c) ready[j].events = 0;
    }
    if (n < 32) break;
  }
  expire();
}

int MetricsServer::timeout_ms() const {
  if (connections_.empty() && !listener_paused_) return -1;
  auto next = listener_paused_ ? resume_at_ : connections_.front()->deadline;
  for (const auto& c : connections_) next = std::min(next, c->deadline);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count();
  return int(std::clamp<long long>(ms + 1, 0, 60000));
}

}  // namespace rawprobe::metrics
