"""wildcard attach: attach then detach one uprobe per function of a libc wildcard.

`uprobe:libc:*` itself is out of reach for bpftrace 0.17 here: one probe at a time, ~80 ms
each for attach plus detach on the VM this was written on (mostly detach, and mostly waiting,
not CPU), and it aborts at the first function the kernel refuses (pthread_spin_lock: error
524), after about 100 s. The default pattern is libc's xdr* functions: ~170 functions no
process calls, all attachable, so the row measures attach and detach alone and disturbs
nothing else on the machine. BENCH_WILDCARD overrides it."""
import os

from ..model import Measure, faster
from ..repeat import alternate
from ..session import attach_then_stop

NAME = "wildcard attach"
TIMEOUT = 900


def pattern():
    return os.environ.get("BENCH_WILDCARD", "uprobe:libc:xdr*")


def measure(ctx):
    probe = pattern()
    script = f"{probe} {{ @ = count(); }}"
    results = alternate(ctx.tools, ctx.runs, ctx.warmup, lambda tool: _one(tool, script),
                        ctx.progress(f"wildcard {probe}"))
    rp, bt = results["rawprobe"], results["bpftrace"]
    how = [f"-e '{script} BEGIN {{ printf(marker) }}', Ctrl-C after the marker"]
    return [
        Measure(NAME, f"{probe}: attach (to first event)", "ms", rp["attach"], bt["attach"],
                faster(10), how),
        Measure(NAME, f"{probe}: detach (Ctrl-C to exit)", "ms", rp["detach"], bt["detach"],
                faster(10), how),
    ]


def _one(tool, script):
    result = attach_then_stop(tool, script, TIMEOUT)
    if isinstance(result, str):
        return result
    return {"attach": result["ready"] * 1000, "detach": result["detach"] * 1000}
