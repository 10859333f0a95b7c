#include "engine/runtime/event_loop.h"

#include <sys/epoll.h>
#include <unistd.h>

#include "engine/sys/fd.h"

namespace rawprobe::runtime {

const char* stop_reason_name(StopReason reason) {
  switch (reason) {
    case StopReason::Exit: return "exit()";
    case StopReason::Signal: return "signal";
    case StopReason::TraceeExited: return "traced process exited";
  }
  return "?";
}

Status drain_events(const LoopParts& parts) {
  if (parts.events) {
    parts.events->drain([&](const uint8_t* data, size_t len) {
      parts.dispatcher->handle(data, len);
      return true;
    });
    if (uint64_t lost = parts.dispatcher->take_lost(parts.events->take_lost())) parts.out->lost_events(lost);
  }
  return parts.out->flush();
}

Records take_pending_records(const LoopParts& parts) {
  Records records;
  if (parts.events)
    parts.events->drain([&](const uint8_t* data, size_t len) {
      records.emplace_back(data, data + len);
      return true;
    });
  return records;
}

void handle_records(const LoopParts& parts, const Records& records) {
  for (const std::vector<uint8_t>& r : records) parts.dispatcher->handle(r.data(), r.size());
}

Result<StopReason> run_event_loop(const LoopParts& parts) {
  sys::Fd epoll(epoll_create1(EPOLL_CLOEXEC));
  if (!epoll) return syscall_error("wait for events", "epoll_create1", errno);
  auto watch = [&](int fd) -> Status {
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.fd = fd;
    if (epoll_ctl(epoll.get(), EPOLL_CTL_ADD, fd, &ev) != 0)
      return syscall_error("wait for events", "epoll_ctl", errno);
    return {};
  };
  if (parts.events)
    for (int fd : parts.events->poll_fds())
      if (Status s = watch(fd); !s) return s.error();
  if (Status s = watch(parts.signals->fd()); !s) return s.error();
  if (parts.service)
    if (Status s = watch(parts.service->fd()); !s) return s.error();
  bool tracee_fd = parts.tracee && parts.tracee->exit_fd() >= 0;
  if (tracee_fd)
    if (Status s = watch(parts.tracee->exit_fd()); !s) return s.error();
  // Without a pidfd the traced process is polled; events never wait on a timeout.
  int timeout_ms = parts.tracee && !tracee_fd ? 100 : -1;

  epoll_event ready[16];
  for (;;) {
    if (Status s = drain_events(parts); !s) return s.error();
    if (parts.dispatcher->exit_requested()) return StopReason::Exit;
    while (int signo = parts.signals->take()) {
      if (!StopSignals::is_print_request(signo)) return StopReason::Signal;
      if (parts.on_sigusr1) {
        parts.on_sigusr1();
        continue;  // its output is read with the other events, at the top of the loop
      }
      if (Status s = parts.dispatcher->print_all_maps(); !s) return s.error();
      if (Status s = parts.out->flush(); !s) return s.error();
    }
    if (parts.tracee && parts.tracee->exited()) {
      // Events the process caused just before it ended are still in the buffers.
      if (Status s = drain_events(parts); !s) return s.error();
      return parts.dispatcher->exit_requested() ? StopReason::Exit : StopReason::TraceeExited;
    }
    int wait_ms = timeout_ms;
    if (parts.service) {
      parts.service->serve();
      int service_ms = parts.service->timeout_ms();
      if (service_ms >= 0 && (wait_ms < 0 || service_ms < wait_ms)) wait_ms = service_ms;
    }
    int n = epoll_wait(epoll.get(), ready, 16, wait_ms);
    if (n < 0 && errno != EINTR) return syscall_error("wait for events", "epoll_wait", errno);
  }
}

}  // namespace rawprobe::runtime
