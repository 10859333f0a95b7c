"""event stream: samples/bench_events.c makes getpgid(0) calls at a fixed rate; the script
printf()s one line, "event 0", per sys_enter_getpgid of that program.

The tracer's stdout is /dev/null (the per-event rows must not be decided by a terminal or a
reader). Delivered = bytes the tracer wrote to stdout between the start of the
workload and the moment its output stopped growing (/proc/PID/io wchar, see
benchlib/process.py), divided by the line's 8 bytes; lost = calls the workload made less
those delivered (so silent drops count too; a "Lost N events" line is never an event line).
BENCH_EVENT_RATE (per second) and BENCH_EVENT_SECONDS set the load."""
import os
import time

from ..model import Goal, Measure
from ..repeat import alternate, fail_all
from ..session import attach_then_stop, workload

NAME = "event stream"
TIMEOUT = 60
EVENT_LINE = "event 0\n"  # getpgid(0): args->pid is always 0


def load():
    return (int(os.environ.get("BENCH_EVENT_RATE", "100000")),
            int(os.environ.get("BENCH_EVENT_SECONDS", "2")))


def measure(ctx):
    rate, seconds = load()
    binary = ctx.sample("bench_events")
    script = ('tracepoint:syscalls:sys_enter_getpgid /comm == "bench_events"/ '
              '{ printf("event %d\\n", args->pid); }')
    missing = ctx.missing_samples([binary])
    results = (fail_all(ctx.tools, missing) if missing else
               alternate(ctx.tools, ctx.runs, ctx.warmup,
                         lambda tool: _one(tool, script, [binary, str(rate), str(seconds)]),
                         ctx.progress("event stream")))
    rp, bt = results["rawprobe"], results["bpftrace"]
    how = [f"bench_events {rate} {seconds}; stdout to /dev/null, counted from /proc/PID/io wchar"]
    # At a rate neither tracer loses at, both deliver everything: that meets the goal too.
    delivered_all = rp["lost"].value == 0
    return [
        Measure(NAME, f"{rate}/s offered: delivered", "events/s", rp["delivered"],
                bt["delivered"], Goal("≥ 2× bpftrace, or all", check=lambda r, b:
                                      r >= 2 * b or delivered_all), how),
        Measure(NAME, f"{rate}/s offered: lost", "events", rp["lost"], bt["lost"],
                Goal("0 where bpftrace loses", check=_no_loss_where_bpftrace_loses), how),
        # Below the offered rate when the probe's in-kernel cost slows the workload itself.
        Measure(NAME, f"{rate}/s offered: rate the traced workload reached", "events/s",
                rp["reached"], bt["reached"], None, how),
    ]


def _no_loss_where_bpftrace_loses(rawprobe, bpftrace):
    return rawprobe == 0 if bpftrace > 0 else rawprobe <= bpftrace


def _one(tool, script, command):
    report = {}

    def while_attached(run):
        before = run.stdout_bytes()
        got = workload(command)
        if isinstance(got, str):
            return got
        after = _wait_until_quiet(run)
        if before is None or after is None:
            return "tracer gone before its output could be counted"
        report.update(got)
        report["delivered"] = min((after - before) // len(EVENT_LINE), int(got["events"]))
        return {}
    result = attach_then_stop(tool, script, TIMEOUT, while_attached, devnull=True)
    if isinstance(result, str):
        return result
    return {"delivered": report["delivered"] / report["seconds"],
            "lost": report["events"] - report["delivered"], "reached": report["rate"]}


def _wait_until_quiet(run, settle=0.3, limit=10.0):
    """Lets the tracer drain what it has buffered: waits until its stdout stops growing;
    returns the bytes written by then."""
    deadline = time.monotonic() + limit
    written = -1
    while time.monotonic() < deadline:
        now = run.stdout_bytes()
        if now is None or now == written:
            return now
        written = now
        time.sleep(settle)
    return written
