"""event stream: samples/bench_events.c makes getpgid(0) calls at a fixed rate; the script
printf()s one line per sys_enter_getpgid of that program. Delivered = event lines the tracer wrote, lost = the sum of the
tracer's own "Lost N events" reports.

Output goes to a file on tmpfs rather than /dev/null: the lines must be counted afterwards,
and tmpfs, like /dev/null, is neither a terminal nor a disk. BENCH_EVENT_RATE (per second)
and BENCH_EVENT_SECONDS set the load."""
import os
import re
import time

from ..model import Goal, Measure, ratio_at_least
from ..repeat import alternate, fail_all
from ..session import attach_then_stop, workload

NAME = "event stream"
TIMEOUT = 60
EVENT_LINE = re.compile(r"^event \d+$", re.M)
LOST = re.compile(r"Lost (\d+) events")


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
    how = [f"bench_events {rate} {seconds}; output to a tmpfs file"]
    return [
        Measure(NAME, f"{rate}/s offered: delivered", "events/s", rp["delivered"],
                bt["delivered"], ratio_at_least(2, "delivered"), how),
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
        got = workload(command)
        if isinstance(got, str):
            return got
        report.update(got)
        _wait_until_quiet(run)
        return {}
    result = attach_then_stop(tool, script, TIMEOUT, while_attached, to_file=True)
    if isinstance(result, str):
        return result
    output = result["output"]
    delivered = len(EVENT_LINE.findall(output))
    lost = sum(int(n) for n in LOST.findall(output))
    return {"delivered": delivered / report["seconds"], "lost": lost, "reached": report["rate"]}


def _wait_until_quiet(run, settle=0.3, limit=10.0):
    """Lets the tracer drain what it has buffered: waits until its output stops growing."""
    deadline = time.monotonic() + limit
    size = -1
    while time.monotonic() < deadline:
        now = len(run.output())
        if now == size:
            return
        size = now
        time.sleep(settle)
