"""listing: wall time of `-l PATTERN`, output to a tmpfs file. The large library is
bpftrace's own libLLVM (~35,000 functions); USDT from python3.11 (its 8 probes, the biggest
USDT user on a stock Debian); and every tracepoint."""
import os
import re
import subprocess

from ..model import Measure, faster
from ..repeat import alternate, fail_all
from ..process import Run

NAME = "listing"
TIMEOUT = 300


def _largest_bpftrace_library(bpftrace_path):
    out = subprocess.run(["ldd", bpftrace_path], capture_output=True, text=True)
    libs = [os.path.realpath(p) for p in re.findall(r"=>\s*(/\S+)", out.stdout)]
    return max(libs, key=os.path.getsize) if libs else None


def patterns(ctx):
    bpftrace = next(t for t in ctx.tools if t.name == "bpftrace")
    library = None if bpftrace.missing() else _largest_bpftrace_library(bpftrace.path)
    python = os.path.realpath("/usr/bin/python3.11")
    return [
        (f"uprobe:{library}:*" if library else None, "uprobes of bpftrace's largest library"),
        (f"usdt:{python}:*" if os.path.exists(python) else None, "USDT of python3.11"),
        ("tracepoint:*", "every tracepoint"),
    ]


def measure(ctx):
    measures = []
    for pattern, label in patterns(ctx):
        if pattern is None:
            results = fail_all(ctx.tools, f"nothing to list for: {label}")
        else:
            results = alternate(ctx.tools, ctx.runs, ctx.warmup, lambda t: _one(t, pattern),
                                ctx.progress(f"listing {pattern}"))
        rp, bt = results["rawprobe"], results["bpftrace"]
        lines = {name: r["lines"].value for name, r in results.items()}
        measures.append(Measure(NAME, f"-l '{pattern}'", "ms", rp["wall"], bt["wall"],
                                faster(5), [f"{label}; lines printed: {lines}"]))
    return measures


def _one(tool, pattern):
    run = Run(tool.listing(pattern), to_file=True)
    try:
        status = run.finish(TIMEOUT)
        output = run.output()
        listed = [l for l in output.splitlines() if l.startswith(pattern.split(":")[0] + ":")]
        if status != 0 or run.timed_out or not listed:
            return tool.failure_reason(output, status, run.timed_out)
        return {"wall": run.wall * 1000, "lines": len(listed)}
    finally:
        run.cleanup()
