// The -c / -p process handling (engine/runtime/tracee.h) and the stop signals, unprivileged:
// a -c child must not run its command before release(), must run it after, must never run
// it when rawprobe gives up first, and its exit must be seen; -p refuses a pid that does not
// exist. The outcomes are observed through the file system (a command that creates a file).
#include <doctest/doctest.h>

#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "engine/runtime/stop_signals.h"
#include "engine/runtime/tracee.h"

using namespace rawprobe;
using namespace rawprobe::runtime;

namespace {

bool exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

std::string temp_name() {
  return "/tmp/rawprobe-tracee-" + std::to_string(getpid()) + "-" +
         std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
}

bool wait_exited(Tracee& t) {
  for (int i = 0; i < 500; ++i) {
    if (t.exited()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

TEST_CASE("split_command: blanks separate words, quotes group them") {
  auto words = split_command("  touch 'a b'  \"c\"d e ");
  REQUIRE(words);
  CHECK(*words == std::vector<std::string>{"touch", "a b", "cd", "e"});
  CHECK(!split_command("   ").ok());
  CHECK(!split_command("echo 'open").ok());
}

TEST_CASE("-c: the command is held until release(), then runs, and its exit is seen") {
  std::string file = temp_name();
  Result<Tracee> t = Tracee::spawn("touch " + file);
  REQUIRE_MESSAGE(t, (t ? "" : t.error().message()));
  CHECK(t->is_child());
  CHECK(t->pid() > 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(!exists(file));   // held before exec
  CHECK(!t->exited());
  REQUIRE(t->release());
  CHECK(wait_exited(*t));
  CHECK(t->exit_status() == 0);
  CHECK(exists(file));
  unlink(file.c_str());
}

TEST_CASE("-c: a child never released never runs its command") {
  std::string file = temp_name();
  pid_t pid;
  {
    Result<Tracee> t = Tracee::spawn("touch " + file);
    REQUIRE(t);
    pid = t->pid();
  }
  CHECK(kill(pid, 0) != 0);  // reaped by the destructor
  CHECK(!exists(file));
}

TEST_CASE("-c: the exit fd becomes readable when the command ends") {
  Result<Tracee> t = Tracee::spawn("true");
  REQUIRE(t);
  if (t->exit_fd() < 0) return;  // kernel without pidfd_open: exited() polling covers it
  pollfd p{t->exit_fd(), POLLIN, 0};
  CHECK(poll(&p, 1, 0) == 0);
  REQUIRE(t->release());
  CHECK(poll(&p, 1, 5000) == 1);
  CHECK(t->exited());
}

TEST_CASE("-c: a missing command is refused before anything starts") {
  Result<Tracee> t = Tracee::spawn("/nonexistent/rawprobe-no-such-command --x");
  REQUIRE(!t);
  CHECK(t.error().message().find("/nonexistent/rawprobe-no-such-command") != std::string::npos);
  Result<Tracee> u = Tracee::spawn("rawprobe-no-such-command-in-path");
  REQUIRE(!u);
  CHECK(u.error().message().find("$PATH") != std::string::npos);
}

TEST_CASE("-p: an existing process is watched; a dead pid is refused") {
  Result<Tracee> self = Tracee::watch(getpid());
  REQUIRE(self);
  CHECK(!self->is_child());
  CHECK(!self->exited());
  // A pid that surely does not exist: a child that has been reaped.
  pid_t gone = fork();
  if (gone == 0) _exit(0);
  int status;
  waitpid(gone, &status, 0);
  CHECK(!Tracee::watch(gone).ok());
  CHECK(!Tracee::watch(0).ok());
}

TEST_CASE("stop signals arrive through the signalfd, even when SIGINT was ignored") {
  signal(SIGINT, SIG_IGN);  // what a shell does for `rawprobe ... &`
  {
    Result<StopSignals> s = StopSignals::install();
    REQUIRE(s);
    CHECK(s->take() == 0);
    kill(getpid(), SIGINT);
    CHECK(s->take() == SIGINT);
    kill(getpid(), SIGTERM);
    CHECK(s->take() == SIGTERM);
    CHECK(s->take() == 0);
  }
  signal(SIGINT, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
}
