"""The two ways a row drives a tracer: attach a script and stop it with Ctrl-C once it says
every probe is attached, or run a workload command under it."""
import re
import subprocess
import time

from .process import Run
from .scripts import ATTACHING_PATTERN, READY_PATTERN, READY_TEXT, with_ready

SETTLE = 0.05
READY_STDOUT_BYTES = len("Attaching 1 probe...\n") + 1 + len(READY_TEXT) + 1


def attach_then_stop(tool, script, timeout, while_attached=None, to_file=False, devnull=False,
                     env=None, ready_pattern=None):
    """Runs `script` plus the ready marker; once ready, calls `while_attached(run)` (its
    dict joins the result), then Ctrl-C. Returns {attaching, ready, detach, rss_kb, ...} in
    seconds / KiB, or the reason the tracer never got ready.

    devnull: stdout goes to /dev/null; "ready" is then the moment the tracer has written
    READY_STDOUT_BYTES to stdout: the "Attaching N probes..." line (22 bytes or more, fewer
    than that total) and the marker, which are all it prints before the first event.

    ready_pattern: the script runs as given (a tool with a BEGIN of its own: bpftrace 0.17
    allows only one), and its first line matching the pattern, printed by that BEGIN, is the
    ready line instead of the marker."""
    text = script if ready_pattern else with_ready(script)
    run = Run(tool.script(text), to_file=to_file, devnull=devnull, env=env)
    try:
        if devnull:
            ready = run.wait_for_stdout_bytes(READY_STDOUT_BYTES, timeout)
        else:
            ready = run.wait_for_line(ready_pattern or READY_PATTERN, timeout)
        if ready is None:
            still_running = run.proc.poll() is None
            status = run.stop(10)
            if still_running:
                return f"no line after attaching within {timeout} s"
            return tool.failure_reason(run.output(), status, run.timed_out)
        attaching = None if devnull else run.wait_for_line(ATTACHING_PATTERN, 0)
        extra = while_attached(run) if while_attached else {}
        if isinstance(extra, str):
            run.stop(30)
            return extra
        # A user's Ctrl-C never lands in the microsecond after the first line; this pause
        # also keeps the stop out of bpftrace's exit-flag race in most runs (Run.stop).
        time.sleep(SETTLE)
        stop = time.monotonic()
        status = run.stop(120)
        if status != 0:
            return "after Ctrl-C: " + tool.failure_reason(run.output(), status, run.timed_out)
        result = {
            "attaching": attaching if attaching is not None else "no 'Attaching N probes...' line",
            "ready": ready,
            "detach": run.end - stop,
            "rss_kb": run.peak_rss_kb(),
            "output": run.output(),
        }
        result.update(extra)
        return result
    finally:
        run.cleanup()


def run_to_exit(argv, timeout):
    """Runs a tracer command to its end: (Run, exit status). The caller cleans up."""
    run = Run(argv)
    return run, run.finish(timeout)


def workload(argv, timeout=300):
    """Runs a sample workload; returns its `key=value` report as floats, or a reason."""
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"workload {argv[0]} timed out"
    if out.returncode != 0:
        return f"workload {argv[0]} failed: {out.stderr.strip()[:60]}"
    return {k: float(v) for k, v in re.findall(r"(\w+)=([-\d.]+)", out.stdout)}
