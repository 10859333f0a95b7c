#include "engine/runtime/stop_signals.h"

#include <signal.h>
#include <sys/signalfd.h>
#include <unistd.h>

namespace rawprobe::runtime {
namespace {

sigset_t stop_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGUSR1);
  return set;
}

}  // namespace

Result<StopSignals> StopSignals::install() {
  struct sigaction current{};
  if (sigaction(SIGINT, nullptr, &current) == 0 && current.sa_handler == SIG_IGN)
    signal(SIGINT, SIG_DFL);
  signal(SIGPIPE, SIG_IGN);
  sigset_t set = stop_set();
  StopSignals s;
  if (sigprocmask(SIG_BLOCK, &set, nullptr) != 0)
    return syscall_error("block the stop signals", "sigprocmask", errno);
  s.blocked_ = true;
  int fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd < 0) return syscall_error("read signals through a signalfd", "signalfd", errno);
  s.fd_.reset(fd);
  return s;
}

StopSignals::~StopSignals() {
  if (!blocked_ || !fd_.valid()) return;  // moved-from
  sigset_t set = stop_set();
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
}

int StopSignals::take() {
  signalfd_siginfo info;
  ssize_t n = read(fd_.get(), &info, sizeof info);
  return n == ssize_t(sizeof info) ? int(info.ssi_signo) : 0;
}

bool StopSignals::is_print_request(int signo) { return signo == SIGUSR1; }

void StopSignals::reset_for_child() {
  signal(SIGUSR1, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
}

}  // namespace rawprobe::runtime
