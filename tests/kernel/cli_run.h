// Running the real CLI (and bpftrace, the oracle) from kernel tests: a child with its stdout
// and stderr captured, readable while it runs (to wait for "Attaching ..." before sending a
// signal), killed if it outlives its timeout so a hung run fails instead of hanging the suite.
#pragma once
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/sys/host_root.h"
#include "tests/kernel/sys_support.h"

namespace rawprobe::cli_test {

// The source file of the test case running now ("" between cases): kept by a doctest
// listener in tests/kernel/main.cpp.
const std::string& current_case_file();

// CI's sanitized run of these cases leaves out the files that never start rawprobe, found by
// grep (mk/ci_suites.mk), which also names them in $RAWPROBE_FILES_NOT_STARTING_RAWPROBE for
// the plain run. A case of one of those files that starts rawprobe after all (through a helper
// the grep does not know) fails here, instead of going unsanitized unnoticed.
inline void check_case_may_start_rawprobe() {
  const char* listed = std::getenv("RAWPROBE_FILES_NOT_STARTING_RAWPROBE");
  const std::string& file = current_case_file();
  if (!listed || file.empty()) return;
  std::string name = file.substr(file.rfind('/') + 1);
  if ((" " + std::string(listed) + " ").find(" " + name + " ") == std::string::npos) return;
  static std::string reported;  // once a file is enough
  if (reported == name) return;
  reported = name;
  FAIL_CHECK(name << " starts rawprobe, but mk/ci_suites.mk found that it never does, so CI's "
                         "sanitized run leaves its cases out: name rawprobe_path() or run_rawprobe() in "
                         "it, or make the grep there find the helper that starts rawprobe");
}

// build-*/rawprobe beside this build-*/kernel-tests.
inline std::string rawprobe_path() {
  check_case_may_start_rawprobe();
  return sys::ktest::test_binary_dir() + "/rawprobe";
}

inline std::string sample(const std::string& name) { return sys::ktest::sample_path(name); }

// The directory holding this build's rawprobe, and the source tree it was built in: the
// nearest directory above it that holds the Makefile's mk/ (build/ sits right below the tree,
// the sanitized build's kernel cases two levels down, in build-fuzz/kernel/).
inline std::string build_dir() { return sys::ktest::test_binary_dir(); }
inline std::string source_root() {
  char real[PATH_MAX];
  std::string dir = realpath(build_dir().c_str(), real) ? real : build_dir();
  for (std::string up = dir; !up.empty();) {
    if (access((up + "/mk/demo.mk").c_str(), F_OK) == 0) return up;
    size_t slash = up.rfind('/');
    if (slash == std::string::npos) break;
    up.resize(slash);
  }
  return dir + "/..";
}

// A whole file as text ("" when it cannot be read).
inline std::string read_file(const std::string& path) {
  std::string text;
  sys::read_text_file(path, text);
  return text;
}

// `s` as one word for sh -c: single-quoted, each ' written as '\''.
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Whether the kernel publishes its BTF: Debian's armmp kernels (CONFIG_DEBUG_INFO_BTF off) do
// not, and there what needs kernel types must be refused, saying so.
inline bool kernel_btf_present() { return access("/sys/kernel/btf/vmlinux", F_OK) == 0; }

// A sanitizer's report in a child's output (`make asan` builds rawprobe with ASan and UBSan).
// ASan's reports also go to files there (log_path), but UBSan's ignore log_path when it runs
// inside ASan's runtime, and a finding may exit with the very status an error-path test expects.
inline bool has_sanitizer_report(const std::string& text) {
  return text.find("runtime error: ") != std::string::npos ||
         text.find("ERROR: AddressSanitizer") != std::string::npos ||
         text.find("ERROR: LeakSanitizer") != std::string::npos;
}

// The /proc/PID/fdinfo text of every fd of `pid` whose link reads `target`
// ("anon_inode:bpf-map", "anon_inode:bpf-prog", "anon_inode:[perf_event]"): the kernel's
// own account of the objects a process holds.
inline std::vector<std::string> fdinfo_of(pid_t pid, const std::string& target) {
  std::vector<std::string> infos;
  std::string dir = "/proc/" + std::to_string(pid) + "/fd";
  DIR* d = opendir(dir.c_str());
  while (d) {
    dirent* e = readdir(d);
    if (!e) break;
    char link[256] = {};
    if (readlink((dir + "/" + e->d_name).c_str(), link, sizeof link - 1) <= 0 || target != link) continue;
    std::string info;
    sys::read_text_file("/proc/" + std::to_string(pid) + "/fdinfo/" + e->d_name, info);
    infos.push_back(std::move(info));
  }
  if (d) closedir(d);
  return infos;
}

struct RunResult {
  std::string out, err;
  int status = -1;  // exit code, or 128 + signal
};

class Process {
 public:
  // `ignore_sigint`: start it the way a shell starts a background job, SIGINT ignored.
  explicit Process(const std::vector<std::string>& argv, bool ignore_sigint = false) {
    int out[2], err[2];
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      if (ignore_sigint) ::signal(SIGINT, SIG_IGN);
      dup2(out[1], 1);
      dup2(err[1], 2);
      // The child starts with stdin, stdout and stderr only, whatever the test process holds
      // open, so a run under a descriptor limit meets the same limit every time.
      close_range(3, ~0U, 0);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execvp(args[0], args.data());
      _exit(127);
    }
    close(out[1]);
    close(err[1]);
    out_ = out[0];
    err_ = err[0];
  }
  ~Process() {
    if (pid_ > 0 && !done_) {
      kill(pid_, SIGKILL);
      int st;
      waitpid(pid_, &st, 0);
    }
    if (out_ >= 0) close(out_);
    if (err_ >= 0) close(err_);
  }
  pid_t pid() const { return pid_; }

  // Reads until stdout holds `text` or `seconds` pass; whether it appeared.
  bool wait_for_output(const std::string& text, int seconds) {
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (result_.out.find(text) == std::string::npos) {
      if (std::chrono::steady_clock::now() > end || !pump(100)) return result_.out.find(text) != std::string::npos;
    }
    return true;
  }
  void signal(int sig) { kill(pid_, sig); }

  const RunResult& so_far() const { return result_; }

  // Waits for exit (SIGKILL after `seconds`), collecting everything. With `resend`, that
  // signal is sent again every 2 s while the process lives: bpftrace 0.17 can miss a SIGINT
  // that lands just before its epoll_wait() and then waits for the next event.
  RunResult finish(int seconds, int resend = 0) {
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    auto next_resend = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (pump(100)) {
      if (resend && std::chrono::steady_clock::now() > next_resend) {
        kill(pid_, resend);
        next_resend += std::chrono::seconds(2);
      }
      if (std::chrono::steady_clock::now() > end) {
        kill(pid_, SIGKILL);
        result_.err += "\n[test: killed after " + std::to_string(seconds) + " s]\n";
      }
    }
    int st = 0;
    waitpid(pid_, &st, 0);
    done_ = true;
    result_.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    CHECK_MESSAGE(!has_sanitizer_report(result_.out + result_.err), "sanitizer report from a child:\n"
                                                                       << result_.err << result_.out);
    return result_;
  }

 private:
  // One poll round; false once both pipes are at EOF.
  bool pump(int ms) {
    pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
    int open_fds = (out_ >= 0) + (err_ >= 0);
    if (open_fds == 0) return false;
    if (poll(fds, 2, ms) <= 0) return true;
    char buf[65536];
    for (int i = 0; i < 2; ++i) {
      int& fd = i == 0 ? out_ : err_;
      if (fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
      ssize_t n = read(fd, buf, sizeof buf);
      if (n > 0) (i == 0 ? result_.out : result_.err).append(buf, size_t(n));
      else {
        close(fd);
        fd = -1;
      }
    }
    return true;
  }

  pid_t pid_ = -1;
  int out_ = -1, err_ = -1;
  bool done_ = false;
  RunResult result_;
};

inline RunResult run(const std::vector<std::string>& argv, int seconds = 60) {
  Process p(argv);
  return p.finish(seconds);
}

// rawprobe ARGS... (the build's binary)
inline RunResult run_rawprobe(std::vector<std::string> args, int seconds = 60) {
  args.insert(args.begin(), rawprobe_path());
  return run(args, seconds);
}

// On a kernel without BTF (kernel_btf_present() false): rawprobe ARGS, which need kernel types,
// must be refused before anything runs: exit 1, nothing on stdout, and an error naming the
// config option that gives a kernel its BTF.
inline void check_refused_without_btf(std::vector<std::string> args) {
  RunResult r = run_rawprobe(std::move(args));
  INFO("without kernel BTF: ", r.out, r.err);
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("CONFIG_DEBUG_INFO_BTF") != std::string::npos);
}

// Whether the kernel runs BPF programs in its interpreter: net.core.bpf_jit_enable is 0, as
// Debian's armmp kernels leave it. The interpreter takes no callbacks (bpf_loop,
// bpf_for_each_map_elem), which `for` loops and len(@map) are made of.
inline bool kernel_interprets_bpf() {
  std::string enabled = read_file("/proc/sys/net/core/bpf_jit_enable");
  return !enabled.empty() && enabled[0] == '0';
}

// Where kernel_interprets_bpf(): a `for` loop must be refused with the hint that names the
// interpreter. True then, after checking it; false where the JIT runs programs.
inline bool checked_interpreter_refusal() {
  if (!kernel_interprets_bpf()) return false;
  RunResult r = run_rawprobe({"-e", "BEGIN { for ($i : 0..3) { print($i); } exit(); }"});
  INFO("in the interpreter: ", r.out, r.err);
  CHECK(r.status == 1);
  CHECK(r.err.find("this kernel runs the program in its interpreter, which allows no callbacks") != std::string::npos);
  return true;
}

// 32-bit arm's kernel steps over a perf watchpoint's access with a mismatch breakpoint, and
// refuses every watchpoint (EINVAL) on a CPU whose debug unit has none, such as qemu's
// cortex-a15. True when `r`, a run with a watchpoint, was refused so, after checking that
// rawprobe said why; false elsewhere.
inline bool checked_arm_watchpoint_refusal(const RunResult& r) {
#if defined(__arm__)
  if (r.status == 0 || r.err.find("perf_event_open: EINVAL") == std::string::npos) return false;
  CHECK(r.err.find("32-bit arm's kernel sets a watchpoint only where the CPU's debug unit has mismatch "
                   "breakpoints") != std::string::npos);
  return true;
#else
  (void)r;
  return false;
#endif
}

// `target`, already running and waiting for `go`, traced with `rawprobe -p PID -e SCRIPT`:
// "Attaching N probes..." comes before the attach, so a BEGIN line tells when every probe is
// in; then `go` is sent and both runs are collected to their ends.
struct TracedRun {
  RunResult target, tracer;
};
inline TracedRun trace_running(Process& target, const std::string& script, int go) {
  Process tracer({rawprobe_path(), "-p", std::to_string(target.pid()), "-e",
                  "BEGIN { printf(\"attached\\n\"); } " + script});
  TracedRun r;
  if (!tracer.wait_for_output("attached\n", 30)) {
    r.tracer = tracer.finish(5);
    r.tracer.err += "\n[test: no BEGIN line within 30 s]\n";
    r.target = target.finish(5);
    return r;
  }
  target.signal(go);
  r.target = target.finish(20);
  r.tracer = tracer.finish(30);
  return r;
}

// Lines of `text` that start with `prefix`.
inline std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
    if (nl == std::string::npos) break;
    at = nl + 1;
  }
  return lines;
}

}  // namespace rawprobe::cli_test
