"""Starting a tracer, timestamping its output lines, and stopping it the way a user would.

Every tracer runs under `/usr/bin/time -v` (peak RSS is read from its report). Output goes
to a pipe read by a thread that timestamps each line as it arrives (for start-up measures),
to a file on tmpfs (listings, counted afterwards), or to /dev/null (the per-event rows, so
neither a terminal nor a reader decides the result). With /dev/null, stderr goes to a tmpfs
file and what the tracer wrote to stdout is counted from its /proc/PID/io `wchar` (bytes
passed to write(2)) less what landed in that stderr file.
"""
import os
import re
import signal
import subprocess
import tempfile
import threading
import time

SCRATCH_DIR = "/dev/shm" if os.path.isdir("/dev/shm") else tempfile.gettempdir()


def _default_sigint():
    # A shell that starts us in the background sets SIGINT to "ignore", and exec keeps an
    # ignored signal ignored: without this reset the tracers would never see Ctrl-C.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Run:
    """One tracer process. `argv` is the tracer's command; the wrapper is added here."""

    def __init__(self, argv, to_file=False, env=None, devnull=False):
        self.argv = list(argv)
        self._time_report = tempfile.NamedTemporaryFile(
            prefix="bench-time-", dir=SCRATCH_DIR, delete=False).name
        self._lines = []          # (monotonic seconds since start, text)
        self._cond = threading.Condition()
        self._out_path = None
        full_env = dict(os.environ, **(env or {}))
        cmd = ["/usr/bin/time", "-v", "-o", self._time_report] + self.argv
        if devnull:
            fd, self._out_path = tempfile.mkstemp(prefix="bench-err-", dir=SCRATCH_DIR)
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=fd,
                                         stdin=subprocess.DEVNULL, env=full_env,
                                         preexec_fn=_default_sigint)
            os.close(fd)
            self._reader = None
        elif to_file:
            fd, self._out_path = tempfile.mkstemp(prefix="bench-out-", dir=SCRATCH_DIR)
            self.proc = subprocess.Popen(cmd, stdout=fd, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=full_env,
                                         preexec_fn=_default_sigint)
            os.close(fd)
            self._reader = None
        else:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=full_env,
                                         preexec_fn=_default_sigint)
            self._reader = threading.Thread(target=self._read_pipe, daemon=True)
        # Time zero is when /usr/bin/time has forked the tracer (its exec follows at once):
        # what Python spends forking (~18 ms here: it copies the interpreter) and
        # /usr/bin/time spends starting (~3 ms) is not the tracer's. For a tracer that
        # starts in a few ms, counting them would make most of its "start-up" ours.
        self.start = self._wait_for_fork()
        if self._reader:
            self._reader.start()
        self.end = None
        self.returncode = None
        self.timed_out = False

    def _wait_for_fork(self, limit=5.0):
        """Polls (without sleeping, a few ms at most) until /usr/bin/time has a child;
        returns that moment, or now if it never forks (the tracer could not be run)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and self.proc.poll() is None:
            if self.tracer_pid() is not None:
                break
        return time.monotonic()

    def _read_pipe(self):
        for raw in iter(self.proc.stdout.readline, b""):
            stamp = time.monotonic() - self.start
            with self._cond:
                self._lines.append((stamp, raw.decode(errors="replace").rstrip("\n")))
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def wait_for_line(self, pattern, timeout):
        """Seconds from start until a line matching `pattern` appeared, or None."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        if self._out_path:
            return self._poll_file(regex, deadline)
        with self._cond:
            while True:
                for stamp, text in self._lines:
                    if regex.search(text):
                        return stamp
                done = self.proc.poll() is not None and not self._reader.is_alive()
                left = deadline - time.monotonic()
                if done or left <= 0:
                    return None
                self._cond.wait(min(left, 0.05))

    def _poll_file(self, regex, deadline):
        while time.monotonic() < deadline:
            with open(self._out_path, errors="replace") as f:
                if any(regex.search(line) for line in f):
                    return time.monotonic() - self.start
            if self.proc.poll() is not None:
                return None
            time.sleep(0.005)
        return None

    def stdout_bytes(self):
        """For a /dev/null run: bytes the tracer has written to stdout so far (all its
        threads' write(2) bytes, less its stderr file), or None once it is gone."""
        pid = self.tracer_pid()
        try:
            with open(f"/proc/{pid}/io") as f:
                wchar = int(re.search(r"^wchar: (\d+)$", f.read(), re.M).group(1))
        except (OSError, AttributeError, TypeError):
            return None
        return wchar - os.path.getsize(self._out_path)

    def wait_for_stdout_bytes(self, count, timeout):
        """For a /dev/null run: seconds from start until `count` bytes went to stdout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            written = self.stdout_bytes()
            if written is not None and written >= count:
                return time.monotonic() - self.start
            if self.proc.poll() is not None:
                return None
            time.sleep(0.005)
        return None

    def tracer_pid(self):
        """The tracer's pid (the child of /usr/bin/time), or None once it is gone."""
        try:
            with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as f:
                children = f.read().split()
        except OSError:
            return None
        return int(children[0]) if children else None

    def interrupt(self):
        """Ctrl-C to the tracer itself: /usr/bin/time ignores SIGINT while it waits."""
        pid = self.tracer_pid()
        if pid:
            try:
                os.kill(pid, signal.SIGINT)
            except ProcessLookupError:
                pass

    def stop(self, timeout, resend_every=2.0):
        """Ctrl-C, then waits for exit; returns the exit status. The Ctrl-C is repeated while
        the tracer lives: bpftrace 0.17 checks its exit flag before an epoll_wait() with no
        timeout, so a SIGINT landing between the check and the wait is noticed only at the
        next event, and a probe that never fires means never."""
        exited = threading.Event()

        def resend():
            while not exited.wait(resend_every):
                self.interrupt()
        self.interrupt()
        resender = threading.Thread(target=resend, daemon=True)
        resender.start()
        try:
            return self.finish(timeout)
        finally:
            exited.set()

    def finish(self, timeout):
        """Waits for exit, killing the tracer after `timeout`; returns the exit status.
        The wait blocks in waitpid() (a timer thread does the killing): Popen.wait(timeout)
        polls with sleeps growing to 50 ms, which would add up to 50 ms to a run that takes
        a few tens."""
        def kill():
            self.timed_out = True
            pid = self.tracer_pid()
            if pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        killer = threading.Timer(timeout, kill)
        killer.daemon = True
        killer.start()
        try:
            self.returncode = self.proc.wait()
        finally:
            killer.cancel()
        self.end = time.monotonic()
        if self._reader:
            self._reader.join(timeout=5)
        return self.returncode

    @property
    def wall(self):
        return self.end - self.start

    def output(self):
        if self._out_path:
            with open(self._out_path, errors="replace") as f:
                return f.read()
        with self._cond:
            return "\n".join(text for _, text in self._lines)

    def peak_rss_kb(self):
        """Peak RSS of the tracer from /usr/bin/time -v, or None."""
        try:
            with open(self._time_report) as f:
                match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", f.read())
        except OSError:
            return None
        return int(match.group(1)) if match else None

    def cleanup(self):
        for path in (self._time_report, self._out_path):
            if path:
                try:
                    os.unlink(path)
                except OSError:
                    pass
