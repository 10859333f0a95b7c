"""tools: start-up of bpftrace's own tools as Debian ships them (/usr/sbin/*.bt of the
bpftrace 0.17 package), unchanged: opensnoop.bt (tracepoints only), and two that read kernel
types from BTF, naptime.bt (curtask as struct task_struct) and tcpdrop.bt (struct sock and
friends through <net/sock.h>, which BTF stands in for). Times from exec to the "Attaching"
line and to the tool's own BEGIN line, and the peak RSS of those runs: what a user waits for before
the tool shows its first event, BTF reading included."""
import os

from ..model import Measure, at_most, faster
from ..repeat import alternate, fail_all
from .startup import _one

NAME = "tools"
TOOLS_DIR = "/usr/sbin"
TOOLS = ["opensnoop.bt", "naptime.bt", "tcpdrop.bt"]
# Each tool's BEGIN says "Tracing ... Hit Ctrl-C to end." once every probe is attached.
READY = r"Hit Ctrl-C to end"


def measure(ctx):
    measures = []
    for file_name in TOOLS:
        path = os.path.join(TOOLS_DIR, file_name)
        if not os.path.exists(path):
            results = fail_all(ctx.tools, f"no {path} (the bpftrace package installs it)")
        else:
            with open(path) as f:
                script = f.read()
            results = alternate(ctx.tools, ctx.runs, ctx.warmup, lambda tool: _one(tool, script, READY),
                                ctx.progress(f"tools {file_name}"))
        rp, bt = results["rawprobe"], results["bpftrace"]
        how = f"-e \"$(cat {path})\", unchanged; ready: its BEGIN's 'Hit Ctrl-C' line; timed from exec"
        measures += [
            Measure(NAME, f"{file_name}: to 'Attaching' line", "ms", rp["attaching"], bt["attaching"],
                    faster(10), [how]),
            Measure(NAME, f"{file_name}: to first event (all attached)", "ms", rp["ready"], bt["ready"],
                    faster(10), [how]),
            Measure("memory", f"{file_name}: peak RSS, attach + Ctrl-C", "KiB", rp["rss_kb"], bt["rss_kb"],
                    at_most("1/15", 1 / 15), ["/usr/bin/time -v, same runs as the tools row"]),
        ]
    return measures
