// The metrics endpoint inside the run's event loop: a non-blocking listening socket and its
// connections behind one epoll fd, which the loop watches (runtime::LoopService). Nothing here
// blocks: a client that sends slowly or never reads only holds its own connection, which is
// closed when its time runs out, so events and other scrapes never wait for it.
//
// Bounds (Limits): connections open at once (more are answered 503 and closed), bytes of a
// request head (http_request.h), seconds for the head to arrive (then 408) and seconds for the
// answer to be taken (then the connection is dropped).
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/fd.h"
#include "engine/base/result.h"
#include "engine/metrics/http_reply.h"
#include "engine/metrics/http_request.h"
#include "engine/metrics/listen_address.h"
#include "engine/runtime/event_loop.h"

namespace rawprobe::metrics {

struct ServerLimits {
  size_t max_connections = 16;
  std::chrono::milliseconds request_time{5000};
  std::chrono::milliseconds reply_time{30000};
};

class MetricsServer : public runtime::LoopService {
 public:
  // Binds and listens now, so a bad address fails before anything is attached.
  static Result<std::unique_ptr<MetricsServer>> open(const ListenAddress& address, ServerLimits limits = {});
  ~MetricsServer() override;

  void set_render(RenderExposition render) { render_ = std::move(render); }
  std::string address() const { return bound_address(listener_.get()); }

  int fd() const override { return epoll_.get(); }
  void serve() override;
  int timeout_ms() const override;

 private:
  using Clock = std::chrono::steady_clock;
  // Reading the request head, writing the reply, then draining until the client closes.
  enum class Phase { Reading, Writing, Closing };
  struct Connection {
    Fd fd;
    Phase phase = Phase::Reading;
    RequestParser parser;
    Reply reply;
    size_t sent = 0;  // of head and body together
    Clock::time_point deadline;
  };

  MetricsServer() = default;
  void accept_all();
  // Handles readiness of one connection; false when it is finished and must be closed.
  bool on_ready(Connection& c, uint32_t events);
  bool read_request(Connection& c);
  void start_reply(Connection& c, Reply reply);
  bool write_reply(Connection& c);
  void watch(Connection& c, uint32_t events, int op);
  void close_connection(size_t index);
  void expire();
  // Out of fds (EMFILE, ENFILE): the pending connection stays queued and the listener stays
  // readable, so it leaves the epoll set for a second instead of waking the loop at once.
  void pause_listener();
  void resume_listener();

  Fd listener_, epoll_;
  ServerLimits limits_;
  RenderExposition render_;
  std::vector<std::unique_ptr<Connection>> connections_;
  bool listener_paused_ = false;
  Clock::time_point resume_at_;
};

}  // namespace rawprobe::metrics
