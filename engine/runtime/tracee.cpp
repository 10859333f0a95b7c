#include "engine/runtime/tracee.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "engine/runtime/stop_signals.h"

namespace rawprobe::runtime {
namespace {

// The byte that releases a held child: exec plainly, or exec traced and stop there.
constexpr char kExecPlain = 1;
constexpr char kExecStopped = 2;

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
  return int(syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

// execvp's search, done before fork so a typo is reported before anything is attached; the
// child then runs execv on the path found. (execvp itself would hand a file the kernel refuses
// with ENOEXEC, such as an i386 program on a kernel without IA32 emulation, to /bin/sh as a
// script, which prints noise and exits 2 instead of saying what was wrong.)
std::string find_executable(const std::string& word) {
  auto executable = [](const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
  };
  if (word.find('/') != std::string::npos) return executable(word) ? word : "";
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t at = 0;
  for (;;) {
    size_t colon = dirs.find(':', at);
    std::string dir = dirs.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + word;
    if (executable(candidate)) return candidate;
    if (colon == std::string::npos) return "";
    at = colon + 1;
  }
}

}  // namespace

Result<std::vector<std::string>> split_command(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (char c : command) {
    if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote)
    return make_error("unterminated quote in the command", command,
                      std::string("close the ") + quote + " quote");
  if (in_word) words.push_back(word);
  if (words.empty()) return make_error("the command to run is empty", "-c", "give -c a command, e.g. -c 'ls -l'");
  return words;
}

Result<Tracee> Tracee::spawn(const std::string& command) {
  Result<std::vector<std::string>> words = split_command(command);
  if (!words) return words.error();
  const std::string executable = find_executable(words->front());
  if (executable.empty())
    return make_error("cannot run the command", words->front(),
                      words->front().find('/') == std::string::npos
                          ? "no executable of that name in $PATH; give its path"
                          : "no executable file at that path");
  // go: the parent's byte that lets the child exec; err: the child's errno when it cannot.
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return syscall_error("hold the command before exec", "pipe2", errno);
  sys::Fd go_read(fds[0]), go_write(fds[1]);
  if (pipe2(fds, O_CLOEXEC) != 0) return syscall_error("hold the command before exec", "pipe2", errno);
  sys::Fd err_read(fds[0]), err_write(fds[1]);
  std::vector<char*> argv;
  for (std::string& w : *words) argv.push_back(w.data());
  argv.push_back(nullptr);
  // Every signal blocked across fork: a signal sent to the child before it has reset the
  // parent's handlers (StopSignals::reset_for_child, which also unblocks) waits until then,
  // instead of running a handler of ours in the child.
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &before);
  pid_t pid = fork();
  if (pid != 0) pthread_sigmask(SIG_SETMASK, &before, nullptr);
  if (pid < 0) return syscall_error("start the command", "fork", errno, command);
  if (pid == 0) {
    // The child: only async-signal-safe calls from here on (close() is one).
    go_write.reset();
    err_read.reset();
    StopSignals::reset_for_child();
    char byte;
    ssize_t n;
    do n = read(go_read.get(), &byte, 1); while (n < 0 && errno == EINTR);
    if (n != 1) _exit(127);  // rawprobe gave up before attaching: never run the command
    if (byte == kExecStopped && ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) {
      int e = errno;
      (void)!write(err_write.get(), &e, sizeof e);
      _exit(127);
    }
    execv(executable.c_str(), argv.data());
    int e = errno;
    (void)!write(err_write.get(), &e, sizeof e);
    _exit(127);
  }
  go_read.reset();
  err_write.reset();
  Tracee t;
  t.pid_ = pid;
  t.executable_ = executable;
  t.child_ = true;
  t.go_ = std::move(go_write);
  t.exec_err_ = std::move(err_read);
  t.pidfd_.reset(open_pidfd(pid));
  return t;
}

Result<Tracee> Tracee::watch(pid_t pid) {
  if (pid <= 0) return make_error("-p needs a process id above 0", std::to_string(pid));
  if (kill(pid, 0) != 0 && errno == ESRCH)
    return make_error("no such process", "-p " + std::to_string(pid), "check the pid with ps");
  Tracee t;
  t.pid_ = pid;
  t.pidfd_.reset(open_pidfd(pid));
  return t;
}

Tracee::Tracee(Tracee&& other) noexcept
    : pid_(other.pid_), executable_(std::move(other.executable_)), child_(other.child_), reaped_(other.reaped_), status_(other.status_),
      go_(std::move(other.go_)), exec_err_(std::move(other.exec_err_)),
      pidfd_(std::move(other.pidfd_)) {
  other.pid_ = -1;
  other.child_ = false;
}

Status Tracee::let_exec(char how) {
  if (write(go_.get(), &how, 1) != 1) return syscall_error("release the command", "write", errno);
  go_.reset();
  int e = 0;
  ssize_t n;
  do n = read(exec_err_.get(), &e, sizeof e); while (n < 0 && errno == EINTR);
  exec_err_.reset();
  if (n == ssize_t(sizeof e))
    return syscall_error("run the command", how == kExecStopped ? "ptrace/execv" : "execv", e,
                         executable_,
                         e == ENOEXEC ? "the kernel cannot execute this file (`file` tells what it is): a "
                                        "program for another architecture, such as i386 on a kernel "
                                        "without IA32 emulation, or a script without a #! line"
                                      : "");
  return {};
}

Status Tracee::run_to_exec(const std::function<bool(pid_t)>& ready) {
  if (!child_ || !go_.valid()) return {};
  if (Status s = let_exec(kExecStopped); !s) return s;
  // A traced child stops with SIGTRAP once exec has replaced its image; later execs stop
  // with PTRACE_EVENT_EXEC. Any other stop is a signal for the command, passed on.
  bool options_set = false;
  for (;;) {
    int status = 0;
    pid_t r;
    do r = waitpid(pid_, &status, 0); while (r < 0 && errno == EINTR);
    if (r != pid_)
      return syscall_error("wait for the command to exec", "waitpid", errno, std::to_string(pid_));
    if (!WIFSTOPPED(status)) {
      reaped_ = true;
      status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return make_error("the command exited before it mapped the binary whose USDT semaphore "
                        "rawprobe must set",
                        std::to_string(pid_),
                        "check the probe's path against what the command runs; or start it, "
                        "then trace it with -p PID");
    }
    bool exec_stop = (!options_set && WSTOPSIG(status) == SIGTRAP) ||
                     (status >> 8) == (SIGTRAP | (PTRACE_EVENT_EXEC << 8));
    int pass_on = exec_stop ? 0 : WSTOPSIG(status);
    if (!options_set) {
      // Killed with rawprobe if rawprobe dies while the command is stopped.
      ptrace(PTRACE_SETOPTIONS, pid_, nullptr, PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL);
      options_set = true;
    }
    if (exec_stop && ready(pid_)) break;
    if (ptrace(PTRACE_CONT, pid_, nullptr, reinterpret_cast<void*>(long(pass_on))) != 0)
      return syscall_error("let the command run to its next exec", "ptrace(PTRACE_CONT)", errno,
                           std::to_string(pid_));
  }
  stopped_at_exec_ = true;
  return {};
}

Status Tracee::release() {
  if (stopped_at_exec_) {
    stopped_at_exec_ = false;
    if (ptrace(PTRACE_DETACH, pid_, nullptr, nullptr) != 0)
      return syscall_error("let the command run on from exec", "ptrace(PTRACE_DETACH)", errno,
                           std::to_string(pid_));
    return {};
  }
  if (!child_ || !go_.valid()) return {};
  return let_exec(kExecPlain);
}

bool Tracee::exited() {
  if (pid_ <= 0) return true;
  if (!child_) {
    // A dead process stays a zombie until its own parent reaps it; the pidfd tells earlier.
    if (pidfd_.valid()) {
      pollfd p{pidfd_.get(), POLLIN, 0};
      if (poll(&p, 1, 0) == 1) return true;
    }
    return kill(pid_, 0) != 0 && errno == ESRCH;
  }
  if (reaped_) return true;
  int status;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    reaped_ = true;
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return true;
  }
  return r < 0 && errno == ECHILD;
}

Tracee::~Tracee() {
  if (!child_ || pid_ <= 0) return;
  go_.reset();  // a child still waiting reads EOF and exits without running the command
  if (stopped_at_exec_) {
    // Stopped at exec, nothing of the command has run: it ends there, and is reaped.
    kill(pid_, SIGKILL);
    int status;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    return;
  }
  if (reaped_ || exited()) return;
  // SIGTERM first (a command may clean up); one that ignores it is killed after a second.
  kill(pid_, SIGTERM);
  for (int i = 0; i < 100 && !exited(); ++i) usleep(10000);
  if (!reaped_) {
    kill(pid_, SIGKILL);
    int status;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

}  // namespace rawprobe::runtime
