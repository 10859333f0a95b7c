"""The kernel's BPF run-time statistics: while the sysctl kernel.bpf_stats_enabled is 1
(Linux 5.1+), every run of every BPF program adds its duration (two sched_clock() reads
around the run) to the program's run_time_ns and 1 to its run_cnt, shown in the fdinfo of a
program fd (benchlib/progsize.py reads them) and by `bpftool prog show`.

The sysctl is global and costs every program run on the machine those two clock reads, so
the cost rows set it only around the runs that read it, and put back what it was after them,
also when they fail."""
import contextlib
import signal
import threading

SYSCTL = "/proc/sys/kernel/bpf_stats_enabled"


def current():
    """The sysctl's value as text ("0" or "1"), or None when it cannot be read."""
    try:
        with open(SYSCTL) as f:
            return f.read().strip()
    except OSError:
        return None


@contextlib.contextmanager
def stats(enabled):
    """Sets kernel.bpf_stats_enabled to 1 (`enabled`) or 0 for the body of the `with`, and
    restores the previous value after it, on an exception too. Yields None, or the reason
    the value could not be set (then nothing is changed)."""
    previous = current()
    wanted = "1" if enabled else "0"
    if previous is None:
        yield f"no {SYSCTL} (kernel before 5.1?)"
        return
    if previous == wanted:
        yield None
        return
    try:
        _write(wanted)
    except OSError as err:
        yield f"cannot set kernel.bpf_stats_enabled={wanted}: {err.strerror}"
        return
    # SIGTERM (`timeout make bench`, say) would end Python without running the `finally`;
    # as an exception it does run it. Ctrl-C is already one (KeyboardInterrupt). SIGKILL
    # cannot be caught: then the value stays changed.
    on_term = _raise_on_sigterm()
    try:
        yield None
    finally:
        _write(previous)
        if on_term is not None:
            signal.signal(signal.SIGTERM, on_term)


def _raise_on_sigterm():
    """Makes SIGTERM raise SystemExit; returns the handler it replaced (None when it cannot:
    only the main thread may set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def terminated(signum, _frame):
        raise SystemExit(128 + signum)
    return signal.signal(signal.SIGTERM, terminated)


def _write(value):
    with open(SYSCTL, "w") as f:
        f.write(value + "\n")


def per_hit(programs, calls, others_may_add=False):
    """The program that ran once per call of the workload, from [(prog_id, run_time_ns,
    run_cnt)]: the one whose run_cnt is `calls` (at least `calls` when other processes may
    hit the same probe: a system-wide tracepoint). The ready marker's BEGIN program (and any
    BEGIN or END of a tracer) runs at most once, so with calls >= 2 it never matches.
    Returns {"ns": run_time_ns / run_cnt, "hits": run_cnt}, or the reason there is no
    single such program."""
    def matches(run_cnt):
        return run_cnt >= calls if others_may_add else run_cnt == calls
    found = [p for p in programs if p[2] > 1 and matches(p[2])]
    seen = ", ".join(f"id {i}: {c} runs" for i, _, c in programs) or "none"
    if len(found) != 1:
        wanted = f"{'at least ' if others_may_add else ''}{calls} times"
        if not found:
            if programs and all(c == 0 for _, _, c in programs):
                return f"no program run counted (is kernel.bpf_stats_enabled 1?); programs: {seen}"
            return f"no program ran {wanted}; programs: {seen}"
        return f"{len(found)} programs ran {wanted}; programs: {seen}"
    _, run_time_ns, run_cnt = found[0]
    return {"ns": run_time_ns / run_cnt, "hits": run_cnt}
